; TSX: TypeScript's references.scm (language.json lists it first), and these @skip
; patterns for JSX: attribute names and intrinsic lower-case tags such as <div> are not
; uses. A tag `<Foo.Bar>` is a member_expression, matched by TypeScript's @member.
(jsx_attribute (property_identifier) @skip)
((jsx_opening_element name: (identifier) @skip) (#match? @skip "^[a-z]"))
((jsx_closing_element name: (identifier) @skip) (#match? @skip "^[a-z]"))
((jsx_self_closing_element name: (identifier) @skip) (#match? @skip "^[a-z]"))
