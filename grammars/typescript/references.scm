; Every name use. @reference: an identifier; @member: a member access whose last
; identifier is the member and whose text before the last "." is the receiver
; (`a.b`, `this.x`, `a?.b`, the type `ns.Type`, the namespace `A.B`).
; @skip: identifiers that are not uses (object-literal keys, destructuring keys).
(identifier) @reference
(type_identifier) @reference
(property_identifier) @reference
(private_property_identifier) @reference
(shorthand_property_identifier) @reference
(shorthand_property_identifier_pattern) @reference
(member_expression) @member
(nested_type_identifier) @member
(nested_identifier) @member
(pair key: (property_identifier) @skip)
; A key of an object literal passed to a call or `new` is a member of the type the callee
; declares for that argument (`source.subscribe({ complete: … })`): @keyed with the
; callee (@keyed.callee / @keyed.new); occurrences.py gives it the receiver `callee(@k)`.
(call_expression
  function: [(identifier) (member_expression)] @keyed.callee
  arguments: (arguments (object (pair key: (property_identifier) @keyed))))
(new_expression
  constructor: [(identifier) (member_expression)] @keyed.new
  arguments: (arguments (object (pair key: (property_identifier) @keyed))))
(pair_pattern key: (property_identifier) @skip)

; Doc comments: `{@link Name}` and `@param name` inside them are uses too (language.json
; doc_links / doc_params say how to find them).
(comment) @comment
