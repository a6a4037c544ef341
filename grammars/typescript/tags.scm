; Definitions, scopes, imports, exports and hints for TypeScript.
; Capture schema (shared by every language): see grammars/README.md.
; tsx/tags.scm is this file verbatim but for its comments (tests/analysis/test_queries.py checks).
;
; Conventions of this file:
; - `const`, `let` and `var` declarators are all kind "variable" (tsserver, too, reports a
;   `const` as a variable); a declarator whose value is a function or arrow function is kind
;   "function" (`const f = () => …`), one whose value is a class expression is kind "class".
;   Such a declarator is also a block scope wrapping the function/class scope, so that the
;   scope has an owner (extract.py pairs a scope with the definition node of the same range).
; - The definition node of a variable is its `variable_declarator`, so `@exported` and
;   `@doc.owner` capture declarators too (extract.py joins them by start byte).
; - extract.py keeps the FIRST definition captured for a name node. Matches come out in the
;   order they finish, then by pattern order: the function/class patterns for declarators and
;   class fields finish on the value node, like the generic ones below them, and so win.
;   That is also why they capture no @body (a deeper capture would finish later).
; - Methods are captured as @definition.function: extract.py turns a function bound in a class
;   scope into a method and keeps its name out of the method's own scope.
; - `export default <declaration>`: the declaration is @exported, and the `default` keyword
;   is captured as @export.name with the declaration's name as @export.local.
; - `export * as ns from './m'` is a re-export with @reexport.namespace (name None, alias ns).
; - CommonJS `const x = require('./x')` is an import of the module bound to x
;   (@import.namespace); `const {a, b: c} = require('./x')` imports a and c.
; - Method names are also accepted when they are private (#x); computed names are not definitions.
; - Not captured: type parameters, object-literal members, TS parameter properties as class
;   members (`constructor(private x: X)` defines only the parameter x), `export =`.
; - Known limits of the current extract.py: members of a class expression (`const A = class {…}`)
;   bind in a class scope with no owner; interface and enum members bind in their body, whose
;   scope has no owner either (so the outline does not nest them).

; ---------------------------------------------------------------- functions and classes
(function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (statement_block) @body) @definition.function

(function_signature
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function

(class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params
    body: (statement_block) @body) @definition.function)

(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)

(class_body
  (abstract_method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)

; class fields: an arrow/function value makes a method, anything else a property
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.function
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: (_)) @definition.property
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  !value) @definition.property

; ---------------------------------------------------------------- interfaces, types, enums, namespaces
(interface_declaration
  name: (type_identifier) @name
  body: (interface_body) @body @owns) @definition.interface

(interface_body
  (property_signature
    name: [(property_identifier) (private_property_identifier)] @name) @definition.property)

(interface_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)

(type_alias_declaration name: (type_identifier) @name) @definition.type

; Generic type parameters bind in the declaration that introduces them (a function's scope,
; a class's, or the interface / type alias scope below).
(type_parameter name: (type_identifier) @name) @definition.type_parameter

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body @owns) @definition.enum

(enum_body name: (property_identifier) @name @definition.property)
(enum_assignment name: (property_identifier) @name) @definition.property

(internal_module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @body) @definition.module

(module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @body) @definition.module

(module name: (string (string_fragment) @name)) @definition.module

; ---------------------------------------------------------------- variables
; function and class values first (see the header)
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
; A parameter property (`constructor(private x: X)`) also declares a member of the class.
(required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property @member.implicit
(optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property @member.implicit
(required_parameter "readonly" pattern: (identifier) @name) @definition.property @member.implicit
(required_parameter pattern: (identifier) @name) @definition.parameter
(optional_parameter pattern: (identifier) @name) @definition.parameter
(required_parameter pattern: (rest_pattern (identifier) @name)) @definition.parameter
(required_parameter
  pattern: (object_pattern
    [
      (shorthand_property_identifier_pattern) @name
      (pair_pattern value: (identifier) @name)
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name)
      (rest_pattern (identifier) @name)
    ])) @definition.parameter
(required_parameter
  pattern: (array_pattern
    [
      (identifier) @name
      (assignment_pattern left: (identifier) @name)
      (rest_pattern (identifier) @name)
    ])) @definition.parameter
(arrow_function parameter: (identifier) @name @definition.parameter)

; ---------------------------------------------------------------- scopes
(function_declaration) @scope.function
(generator_function_declaration) @scope.function
(function_signature) @scope.function
(function_expression) @scope.function
(generator_function) @scope.function
(arrow_function) @scope.function
(method_definition) @scope.function
(method_signature) @scope.function
(abstract_method_signature) @scope.function
(function_type) @scope.function
(constructor_type) @scope.function
(call_signature) @scope.function
(construct_signature) @scope.function
(class_declaration) @scope.class
(abstract_class_declaration) @scope.class
(class) @scope.class
; interface and enum members bind in the body: the declaration's own name must stay outside
; (extract.py keeps only function and class names out of their own scope)
(interface_body) @scope.class
(interface_declaration) @scope.block
(type_alias_declaration) @scope.block
(enum_body) @scope.class
(statement_block) @scope.block
; A declarator (or class field) whose value is a function or class is a scope of its own,
; the same node as its definition, so that the function/class scope inside it has an owner
; (extract.py pairs a scope with the definition node of the same range). It is a "block"
; so that `this.x = …` in an arrow-function field still finds its class.
(variable_declarator value: [(arrow_function) (function_expression) (generator_function) (class)]) @scope.block
(public_field_definition value: [(arrow_function) (function_expression)]) @scope.block
(catch_clause) @scope.block
(for_statement) @scope.block
(for_in_statement) @scope.block

; ---------------------------------------------------------------- bases
(class_declaration (class_heritage (extends_clause value: (_) @bases))) @bases.owner
(class_declaration (class_heritage (implements_clause (_) @bases))) @bases.owner
(abstract_class_declaration (class_heritage (extends_clause value: (_) @bases))) @bases.owner
(abstract_class_declaration (class_heritage (implements_clause (_) @bases))) @bases.owner
(variable_declarator value: (class (class_heritage (extends_clause value: (_) @bases)))) @bases.owner
(variable_declarator value: (class (class_heritage (implements_clause (_) @bases)))) @bases.owner
(interface_declaration (extends_type_clause type: (_) @bases)) @bases.owner

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

; `import x = require('./x')`
(import_statement
  (import_require_clause (identifier) @import.namespace source: (string (string_fragment) @import.from))) @import

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
    (class_declaration name: (type_identifier) @export.local)
    (abstract_class_declaration name: (type_identifier) @export.local)
    (interface_declaration name: (type_identifier) @export.local)
  ])

(export_statement declaration: (_) @exported)
(export_statement declaration: (ambient_declaration (_) @exported))
(export_statement declaration: (lexical_declaration (variable_declarator) @exported))
(export_statement declaration: (variable_declaration (variable_declarator) @exported))
(export_statement declaration: (ambient_declaration (lexical_declaration (variable_declarator) @exported)))
(export_statement declaration: (ambient_declaration (variable_declaration (variable_declarator) @exported)))

; ---------------------------------------------------------------- hints
(variable_declarator
  name: (identifier) @hint.target
  type: (type_annotation [(type_identifier) (nested_type_identifier)] @hint.value))
(variable_declarator
  name: (identifier) @hint.target
  type: (type_annotation (generic_type name: (_) @hint.value)))
(variable_declarator
  name: (identifier) @hint.target
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.value))
(variable_declarator
  name: (identifier) @hint.target
  value: (as_expression (_) [(type_identifier) (nested_type_identifier)] @hint.value))

(required_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation [(type_identifier) (nested_type_identifier)] @hint.value))
(required_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation (generic_type name: (_) @hint.value)))
(optional_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation [(type_identifier) (nested_type_identifier)] @hint.value))
(optional_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation (generic_type name: (_) @hint.value)))

(public_field_definition
  name: (_) @hint.target
  type: (type_annotation [(type_identifier) (nested_type_identifier)] @hint.value))
(public_field_definition
  name: (_) @hint.target
  type: (type_annotation (generic_type name: (_) @hint.value)))
(public_field_definition
  name: (_) @hint.target
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.value))
(interface_body
  (property_signature
    name: (_) @hint.target
    type: (type_annotation [(type_identifier) (nested_type_identifier)] @hint.value)))

(assignment_expression
  left: (member_expression object: (this) property: (_) @hint.target)
  right: (new_expression constructor: [(identifier) (member_expression)] @hint.value))

; `const self = this`: an instance of the enclosing class
(variable_declarator name: (identifier) @hint.target value: (this) @hint.value)

; A union's first member stands for the union (`source: Observable<T> | undefined`; in
; `A | B | C` the first member sits one union deeper).
(variable_declarator
  name: (identifier) @hint.target
  type: (type_annotation (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])))
(required_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])))
(optional_parameter
  pattern: (identifier) @hint.target
  type: (type_annotation (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])))
(public_field_definition
  name: (_) @hint.target
  type: (type_annotation (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])))
(interface_body
  (property_signature
    name: (_) @hint.target
    type: (type_annotation [(generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])])))

; `T[]` is an Array (language.json `array_type`): its members are the built-in Array's.
(variable_declarator name: (identifier) @hint.target type: (type_annotation (array_type) @hint.array))
(required_parameter pattern: (identifier) @hint.target type: (type_annotation (array_type) @hint.array))
(optional_parameter pattern: (identifier) @hint.target type: (type_annotation (array_type) @hint.array))
(public_field_definition name: (_) @hint.target type: (type_annotation (array_type) @hint.array))
(interface_body (property_signature name: (_) @hint.target type: (type_annotation (array_type) @hint.array)))
(required_parameter
  pattern: (rest_pattern (identifier) @hint.target)
  type: (type_annotation (array_type) @hint.array))

; Declared return types: calling the function gives an instance of that type.
(function_declaration name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(function_signature name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(generator_function_declaration name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(method_definition name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(method_signature name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(abstract_method_signature name: (_) @hint.target return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))
(variable_declarator
  name: (identifier) @hint.target
  value: [(arrow_function return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])])) (function_expression return_type: (type_annotation [(type_identifier) @hint.value (nested_type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value) (union_type . [(type_identifier) @hint.value (generic_type name: (_) @hint.value)])])]))])

; A callback's untyped parameter takes the type the callee declares for it
; (`operate((source, subscriber) => …)`, `new Observable((subscriber) => …)`): extract.py
; writes the value `callee(@k.j)` (or `new callee(@k.j)`) — parameter j of the function
; passed as argument k — from @hint.args / @hint.fn / @hint.params.
(call_expression
  function: [(identifier) (member_expression)] @hint.callee
  arguments: (arguments
    [(arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param))
     (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param))] @hint.fn) @hint.args)
(call_expression
  function: [(identifier) (member_expression)] @hint.callee
  arguments: (arguments (arrow_function parameter: (identifier) @hint.target @hint.param) @hint.fn) @hint.args)
(new_expression
  constructor: [(identifier) (member_expression)] @hint.new
  arguments: (arguments
    [(arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param))
     (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param))] @hint.fn) @hint.args)
(new_expression
  constructor: [(identifier) (member_expression)] @hint.new
  arguments: (arguments (arrow_function parameter: (identifier) @hint.target @hint.param) @hint.fn) @hint.args)

;   A callback chosen by a condition (`new Observable(c ? (s) => … : (s) => …)`) is the
;   argument the condition stands in (@hint.arg).
(new_expression
  constructor: [(identifier) (member_expression)] @hint.new
  arguments: (arguments
    (ternary_expression
      (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param)) @hint.fn) @hint.arg) @hint.args)
(call_expression
  function: [(identifier) (member_expression)] @hint.callee
  arguments: (arguments
    (ternary_expression
      (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @hint.target !type) @hint.param)) @hint.fn) @hint.arg) @hint.args)

; `const { a } = x.y`: a is x.y.a (its declared type, when x.y has one)
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @hint.target)
  value: [(identifier) (member_expression) (this)] @hint.from)

; `this.x = param`: the field holds what the name holds (a typed parameter, say)
(assignment_expression
  left: (member_expression object: (this) property: (_) @hint.target)
  right: (identifier) @hint.value)

; A value that is a call: what the callee returns (`const s = innerFrom(x)`).
(variable_declarator
  name: (identifier) @hint.target
  value: (call_expression function: [(identifier) (member_expression)] @hint.call))
(assignment_expression
  left: (member_expression object: (this) property: (_) @hint.target)
  right: (call_expression function: [(identifier) (member_expression)] @hint.call))

; ---------------------------------------------------------------- documentation (JSDoc)
; Only JSDoc comments (`/** … */`), as in tsserver's hover; the owner is the node captured as
; @definition.* (extract.py joins them by start byte).
((comment) @doc
  .
  [
    (function_declaration)
    (generator_function_declaration)
    (function_signature)
    (class_declaration)
    (abstract_class_declaration)
    (interface_declaration)
    (type_alias_declaration)
    (enum_declaration)
    (module)
  ] @doc.owner
  (#match? @doc "^/[*][*]"))
((comment) @doc . (expression_statement (internal_module) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (lexical_declaration (variable_declarator) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (variable_declaration (variable_declarator) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (ambient_declaration (_) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc
  .
  (ambient_declaration
    [(lexical_declaration (variable_declarator) @doc.owner) (variable_declaration (variable_declarator) @doc.owner)])
  (#match? @doc "^/[*][*]"))
((comment) @doc . (export_statement declaration: (_) @doc.owner)
  (#match? @doc "^/[*][*]"))
((comment) @doc . (export_statement declaration: (ambient_declaration (_) @doc.owner))
  (#match? @doc "^/[*][*]"))
((comment) @doc
  .
  (export_statement
    declaration: [(lexical_declaration (variable_declarator) @doc.owner) (variable_declaration (variable_declarator) @doc.owner)])
  (#match? @doc "^/[*][*]"))
(class_body
  (comment) @doc
  .
  (decorator)*
  .
  [(method_definition) (method_signature) (abstract_method_signature) (public_field_definition)] @doc.owner
  (#match? @doc "^/[*][*]"))
(interface_body (comment) @doc . [(property_signature) (method_signature)] @doc.owner
  (#match? @doc "^/[*][*]"))
