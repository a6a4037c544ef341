; Every name use. @reference: an identifier; @member: a member access whose last
; identifier is the member and whose text before the last "." is the receiver.
; @skip: identifiers that are not variable uses (keyword-argument names, `case P(name=…)`).
(identifier) @reference
(attribute) @member
(keyword_argument name: (identifier) @skip)
(keyword_pattern . (identifier) @skip)
