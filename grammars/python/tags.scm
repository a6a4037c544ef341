; Definitions, scopes, imports and hints for Python.
; Capture schema (shared by every language, see grammars/README.md):
;   @definition.<kind> whole node, @name its name, @params/@returns/@body/@bases for details,
;   @scope.<kind> a node that opens a scope, @import.* one imported binding,
;   @hint.target/@hint.value a value or annotation that names the binding's class,
;   @doc/@doc.owner a docstring and the node it documents, @global a name declared global.

(function_definition
  name: (identifier) @name
  parameters: (parameters) @params
  body: (block) @body) @definition.function

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(class_definition
  superclasses: (argument_list) @bases) @bases.owner

(assignment left: (identifier) @name) @definition.variable
(assignment left: (pattern_list (identifier) @name)) @definition.variable
(assignment left: (tuple_pattern (identifier) @name)) @definition.variable
(assignment left: (pattern_list (tuple_pattern (identifier) @name))) @definition.variable
(assignment left: (list_pattern (identifier) @name)) @definition.variable
(assignment left: (pattern_list (list_splat_pattern (identifier) @name))) @definition.variable
(augmented_assignment left: (identifier) @name) @definition.variable
(named_expression name: (identifier) @name) @definition.variable
(for_statement left: (identifier) @name) @definition.variable
(for_statement left: (pattern_list (identifier) @name)) @definition.variable
(for_statement left: (tuple_pattern (identifier) @name)) @definition.variable
(for_statement left: (pattern_list (tuple_pattern (identifier) @name))) @definition.variable
(for_in_clause left: (identifier) @name) @definition.variable
(for_in_clause left: (pattern_list (identifier) @name)) @definition.variable
(for_in_clause left: (tuple_pattern (identifier) @name)) @definition.variable
(as_pattern_target (identifier) @name) @definition.variable
(as_pattern_target (tuple (identifier) @name)) @definition.variable
(type_alias_statement left: (type (identifier) @name)) @definition.type

; match/case capture patterns: `case x`, `case [a, *rest]`, `case P(k=v) as p`, `case {**rest}`
(case_pattern (dotted_name . (identifier) @name .)) @definition.variable
(keyword_pattern (dotted_name . (identifier) @name .)) @definition.variable
(case_pattern (splat_pattern (identifier) @name)) @definition.variable
(dict_pattern (splat_pattern (identifier) @name)) @definition.variable
(case_pattern (as_pattern (case_pattern) (identifier) @name)) @definition.variable

(assignment
  left: (attribute object: (identifier) @receiver attribute: (identifier) @name)) @definition.attribute
(assignment
  left: [(pattern_list (attribute object: (identifier) @receiver attribute: (identifier) @name))
         (tuple_pattern (attribute object: (identifier) @receiver attribute: (identifier) @name))]) @definition.attribute

(parameters (identifier) @name) @definition.parameter
(lambda_parameters (identifier) @name) @definition.parameter
(typed_parameter (identifier) @name) @definition.parameter
(default_parameter name: (identifier) @name) @definition.parameter
(typed_default_parameter name: (identifier) @name) @definition.parameter
(list_splat_pattern (identifier) @name) @definition.parameter
(dictionary_splat_pattern (identifier) @name) @definition.parameter

(function_definition) @scope.function
(lambda) @scope.function
(class_definition) @scope.class
(list_comprehension) @scope.function
(set_comprehension) @scope.function
(dictionary_comprehension) @scope.function
(generator_expression) @scope.function

(global_statement (identifier) @global)
(nonlocal_statement (identifier) @nonlocal)

(import_statement name: (dotted_name) @import.module) @import
(import_statement
  name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.from name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: (_) @import.from
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.from (wildcard_import) @import.star) @import

; hints (server/agentls/analysis/hints.py): @hint.value a class called, @hint.type an
; annotation, @hint.alias a dotted value, @hint.return a function's return annotation
(assignment left: (identifier) @hint.target right: (call function: [(identifier) (attribute)] @hint.value))
; a call of a subscripted generic makes an instance too: `ConfigAttribute[bool]("X")`
(assignment left: (identifier) @hint.target right: (call function: (subscript value: [(identifier) (attribute)] @hint.value)))
(assignment left: (identifier) @hint.target type: (type) @hint.type)
(assignment left: (identifier) @hint.target right: [(identifier) (attribute)] @hint.alias)
; `x = x or make()`: the value of its left side (what a checker keeps when it is set)
(assignment left: (identifier) @hint.target right: (boolean_operator left: [(identifier) (attribute)] @hint.alias operator: "or"))
(typed_parameter (identifier) @hint.target type: (type) @hint.type)
(typed_default_parameter name: (identifier) @hint.target type: (type) @hint.type)
(assignment
  left: (attribute object: (identifier) attribute: (identifier) @hint.target)
  right: (call function: [(identifier) (attribute)] @hint.value))
(assignment
  left: (attribute object: (identifier) attribute: (identifier) @hint.target)
  right: (call function: (subscript value: [(identifier) (attribute)] @hint.value)))
(assignment
  left: (attribute object: (identifier) attribute: (identifier) @hint.target)
  type: (type) @hint.type)
(assignment
  left: (attribute object: (identifier) attribute: (identifier) @hint.target)
  right: [(identifier) (attribute)] @hint.alias)
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @hint.value) alias: (as_pattern_target (identifier) @hint.target)))
; a loop variable is an item of what the loop iterates (`for p in self.params`)
(for_statement left: (identifier) @hint.target right: [(identifier) (attribute) (call)] @hint.items)
(for_in_clause left: (identifier) @hint.target right: [(identifier) (attribute) (call)] @hint.items)
; a property is a value of its return type; a function's call is
(decorated_definition
  (decorator [(identifier) (attribute)] @_property (#match? @_property "^(functools[.])?(cached_)?property$"))
  definition: (function_definition name: (identifier) @hint.target return_type: (type) @hint.property))
(function_definition name: (identifier) @hint.target return_type: (type) @hint.return)
; a decorated function is what its topmost decorator makes of it (`@click.command()`)
(decorated_definition
  .
  (decorator [(identifier) (attribute) (call)] @hint.decorator)
  definition: (function_definition name: (identifier) @hint.target))

(module . (expression_statement (string) @doc)) @doc.owner
(function_definition body: (block . (expression_statement (string) @doc))) @doc.owner
(class_definition body: (block . (expression_statement (string) @doc))) @doc.owner
