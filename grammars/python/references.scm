; Every name use. @reference: an identifier; @member: a member access whose last
; identifier is the member and whose text before the last "." is the receiver.
; @skip: identifiers that are not variable uses (keyword-argument names, `case P(name=…)`).
; @keyword.name: a keyword argument's name in a call of a dotted callee (@keyword.callee,
; its arguments @keyword.args): a use of the callee's parameter of that name.
(identifier) @reference
(attribute) @member
(keyword_argument name: (identifier) @skip)
(keyword_pattern . (identifier) @skip)
(call
  function: [(identifier) (attribute)] @keyword.callee
  arguments: (argument_list (keyword_argument name: (identifier) @keyword.name)) @keyword.args)
