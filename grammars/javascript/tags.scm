; Definitions, scopes, imports, exports and hints for JavaScript (and JSX).
; Capture schema (shared by every language): see grammars/README.md.
; Same conventions as typescript/tags.scm (read its header); the differences come from the
; grammar: no types, class names are `identifier`, class fields are `field_definition`
; (`property:`), and formal parameters are bare patterns (`identifier`, `assignment_pattern`,
; `rest_pattern`, `object_pattern`, `array_pattern`).
; Summary: `const`/`let`/`var` are all kind "variable"; a declarator with a function/arrow value
; is kind "function" and with a class value kind "class" (and that declarator is the scope of
; the value); the first definition captured for a name wins, so those patterns come first.
; `const x = require('./x')` is an import bound to x; `exports.a = b`, `module.exports.a = b`
; and `module.exports = { a }` are exports (`module.exports = value` is not).

; ---------------------------------------------------------------- functions and classes
(function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params
    body: (statement_block) @body) @definition.function)

; class fields: an arrow/function value makes a method, anything else a property
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.function
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: (_)) @definition.property
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  !value) @definition.property

; ---------------------------------------------------------------- variables
; function and class values first (see typescript/tags.scm)
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; a CommonJS require is an import, not a variable (see the imports below)
(variable_declarator
  name: (identifier) @name
  value: (_) @_value
  (#not-match? @_value "^require\\s*\\(\\s*['\"][^'\"]+['\"]\\s*\\)$")) @definition.variable

(variable_declarator name: (identifier) @name !value) @definition.variable

(variable_declarator
  name: (object_pattern
    [
      (shorthand_property_identifier_pattern) @name
      (pair_pattern value: (identifier) @name)
      (pair_pattern value: (assignment_pattern left: (identifier) @name))
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name)
      (rest_pattern (identifier) @name)
    ])
  value: (_) @_value
  (#not-match? @_value "^require\\s*\\(\\s*['\"][^'\"]+['\"]\\s*\\)$")) @definition.variable

(variable_declarator
  name: (array_pattern
    [
      (identifier) @name
      (assignment_pattern left: (identifier) @name)
      (rest_pattern (identifier) @name)
    ])) @definition.variable

(for_in_statement
  kind: _
  left: [
    (identifier) @name
    (object_pattern (shorthand_property_identifier_pattern) @name)
    (object_pattern (pair_pattern value: (identifier) @name))
    (array_pattern (identifier) @name)
  ]) @definition.variable

(catch_clause
  parameter: [
    (identifier) @name
    (object_pattern (shorthand_property_identifier_pattern) @name)
  ]) @definition.parameter

; `this.x = …` inside a method binds x in the class
(assignment_expression
  left: (member_expression
    object: (this) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @definition.attribute

; ---------------------------------------------------------------- parameters
(formal_parameters (identifier) @name @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @name) @definition.parameter)
(formal_parameters (rest_pattern (identifier) @name) @definition.parameter)
(formal_parameters
  (object_pattern
    [
      (shorthand_property_identifier_pattern) @name
      (pair_pattern value: (identifier) @name)
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name)
      (rest_pattern (identifier) @name)
    ]) @definition.parameter)
(formal_parameters
  (assignment_pattern
    left: (object_pattern
      [
        (shorthand_property_identifier_pattern) @name
        (pair_pattern value: (identifier) @name)
      ])) @definition.parameter)
(formal_parameters
  (array_pattern
    [
      (identifier) @name
      (assignment_pattern left: (identifier) @name)
      (rest_pattern (identifier) @name)
    ]) @definition.parameter)
(arrow_function parameter: (identifier) @name @definition.parameter)

; ---------------------------------------------------------------- scopes
(function_declaration) @scope.function
(generator_function_declaration) @scope.function
(function_expression) @scope.function
(generator_function) @scope.function
(arrow_function) @scope.function
(method_definition) @scope.function
(class_declaration) @scope.class
(class) @scope.class
(statement_block) @scope.block
; A declarator (or class field) whose value is a function or class is a scope of its own,
; the same node as its definition, so that the function/class scope inside it has an owner
; (extract.py pairs a scope with the definition node of the same range). It is a "block"
; so that `this.x = …` in an arrow-function field still finds its class.
(variable_declarator value: [(arrow_function) (function_expression) (generator_function) (class)]) @scope.block
(field_definition value: [(arrow_function) (function_expression)]) @scope.block
(catch_clause) @scope.block
(for_statement) @scope.block
(for_in_statement) @scope.block

; ---------------------------------------------------------------- bases
(class_declaration (class_heritage (_) @bases)) @bases.owner
(variable_declarator value: (class (class_heritage (_) @bases))) @bases.owner

; ---------------------------------------------------------------- imports
(import_statement
  (import_clause (named_imports (import_specifier name: _ @import.name !alias)))
  source: (string (string_fragment) @import.from)) @import

(import_statement
  (import_clause
    (named_imports (import_specifier name: _ @import.name alias: (identifier) @import.alias)))
  source: (string (string_fragment) @import.from)) @import

(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.from)) @import

(import_statement
  (import_clause (namespace_import (identifier) @import.namespace))
  source: (string (string_fragment) @import.from)) @import

; `import './side-effect'`: a dependency without a binding
(import_statement . source: (string (string_fragment) @import.from)) @import

; `import('./lazy')`: a dependency without a binding
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.from))) @import

; CommonJS
(variable_declarator
  name: (identifier) @import.namespace
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.from) .))
  (#eq? @_require "require")) @import

(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.from) .))
  (#eq? @_require "require")) @import

(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.from) .))
  (#eq? @_require "require")) @import

(expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.from) .))
  (#eq? @_require "require")) @import

; ---------------------------------------------------------------- re-exports
(export_statement
  (export_clause (export_specifier name: _ @reexport.name !alias))
  source: (string (string_fragment) @reexport.from)) @reexport

(export_statement
  (export_clause (export_specifier name: _ @reexport.name alias: _ @reexport.alias))
  source: (string (string_fragment) @reexport.from)) @reexport

(export_statement "*" @reexport.star source: (string (string_fragment) @reexport.from)) @reexport

(export_statement
  (namespace_export (identifier) @reexport.namespace)
  source: (string (string_fragment) @reexport.from)) @reexport

; ---------------------------------------------------------------- exports
(export_statement
  !source
  (export_clause (export_specifier name: _ @export.local !alias)))

(export_statement
  !source
  (export_clause (export_specifier name: _ @export.local alias: _ @export.name)))

(export_statement "default" @export.name value: (identifier) @export.local)

(export_statement
  "default" @export.name
  declaration: [
    (function_declaration name: (identifier) @export.local)
    (generator_function_declaration name: (identifier) @export.local)
    (class_declaration name: (identifier) @export.local)
  ])

; CommonJS: `exports.name = local`, `module.exports = { local, … }`, `module.exports.name = local`
(assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @export.name)
  right: (identifier) @export.local
  (#eq? @_exports "exports"))
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    property: (property_identifier) @export.name)
  right: (identifier) @export.local
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object (shorthand_property_identifier) @export.local)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

(export_statement declaration: (_) @exported)
(export_statement declaration: (lexical_declaration (variable_declarator) @exported))
(export_statement declaration: (variable_declaration (variable_declarator) @exported))

; ---------------------------------------------------------------- hints
(variable_declarator
  name: (identifier) @hint.target
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.value))
(field_definition
  property: (_) @hint.target
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.value))
(assignment_expression
  left: (member_expression object: (this) property: (_) @hint.target)
  right: (new_expression constructor: [(identifier) (member_expression)] @hint.value))
; `const self = this`: an instance of the enclosing class
(variable_declarator name: (identifier) @hint.target value: (this) @hint.value)
; `this.x = y`: the field holds what y holds
(assignment_expression
  left: (member_expression object: (this) property: (_) @hint.target)
  right: (identifier) @hint.value)
; `const { a } = x.y`: a is x.y.a
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @hint.target)
  value: [(identifier) (member_expression) (this)] @hint.from)

; ---------------------------------------------------------------- documentation (JSDoc)
; Only JSDoc comments (`/** … */`), as in tsserver's hover; the owner is the node captured as
; @definition.* (extract.py joins them by start byte).
((comment) @doc
  .
  [(function_declaration) (generator_function_declaration) (class_declaration)] @doc.owner
  (#match? @doc "^/[*][*]"))
((comment) @doc . (lexical_declaration (variable_declarator) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (variable_declaration (variable_declarator) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (export_statement declaration: (_) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc
  .
  (export_statement
    declaration: [(lexical_declaration (variable_declarator) @doc.owner) (variable_declaration (variable_declarator) @doc.owner)])
  (#match? @doc "^/[*][*]"))
(class_body (comment) @doc . [(method_definition) (field_definition)] @doc.owner
  (#match? @doc "^/[*][*]"))
