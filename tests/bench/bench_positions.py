"""Seeded samples of identifier positions in a project, found with tree-sitter.

A Position is workspace-relative path, 0-based line, UTF-16 character (LSP / agentls),
the code-point column (jedi) and the UTF-16 offset in the file (TypeScript's language
service). "Uses" leave out the names a declaration introduces (def/class/parameter
names, assignment and loop targets, import clauses) so a definition query has somewhere
to go. Must not know: agentls.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import tree_sitter
import tree_sitter_python
import tree_sitter_typescript
from bench_data import source_files

PY_IDENT = {"identifier"}
TS_IDENT = {"identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"}

# (parent type, field) pairs whose identifier is a declared name, not a use
PY_DECL_FIELDS = {
    ("function_definition", "name"),
    ("class_definition", "name"),
    ("default_parameter", "name"),
    ("typed_default_parameter", "name"),
    ("keyword_argument", "name"),
}
PY_DECL_PARENTS = {
    "parameters",
    "lambda_parameters",
    "typed_parameter",
    "list_splat_pattern",
    "dictionary_splat_pattern",
    "global_statement",
    "nonlocal_statement",
}
PY_IMPORT = {
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "aliased_import",
}
PY_TARGET_PARENTS = {"pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target"}

TS_DECL_FIELDS = {
    ("function_declaration", "name"),
    ("generator_function_declaration", "name"),
    ("class_declaration", "name"),
    ("abstract_class_declaration", "name"),
    ("class", "name"),
    ("method_definition", "name"),
    ("method_signature", "name"),
    ("abstract_method_signature", "name"),
    ("variable_declarator", "name"),
    ("interface_declaration", "name"),
    ("type_alias_declaration", "name"),
    ("enum_declaration", "name"),
    ("public_field_definition", "name"),
    ("property_signature", "name"),
    ("required_parameter", "pattern"),
    ("optional_parameter", "pattern"),
    ("type_parameter", "name"),
    ("function_signature", "name"),
    ("module", "name"),
    ("internal_module", "name"),
    ("enum_assignment", "name"),
    ("pair", "key"),
}
TS_IMPORT = {
    "import_statement",
    "import_clause",
    "import_specifier",
    "namespace_import",
    "named_imports",
    "export_specifier",
}


@dataclass(frozen=True, slots=True)
class Position:
    path: str
    line: int
    char: int  # UTF-16
    col: int  # code points (jedi)
    offset16: int  # UTF-16 offset from the start of the file (TypeScript LS)
    name: str
    kind: str  # name | attribute | self | type | property | ...

    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.char}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Position:
        return Position(**d)


def _parser(language: str) -> tree_sitter.Parser:
    if language == "python":
        lang = tree_sitter.Language(tree_sitter_python.language())
    else:
        lang = tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Parser(lang)


def _field(node: tree_sitter.Node) -> str | None:
    parent = node.parent
    if parent is None:
        return None
    for i, child in enumerate(parent.children):
        if child.id == node.id:
            return parent.field_name_for_child(i)
    return None


def _py_kind(node: tree_sitter.Node) -> str | None:
    """How a Python identifier is used, or None when it declares a name."""
    parent = node.parent
    assert parent is not None
    field = _field(node)
    if (
        (parent.type, field) in PY_DECL_FIELDS
        or parent.type in PY_DECL_PARENTS
        or parent.type in PY_TARGET_PARENTS
    ):
        return None
    anc: tree_sitter.Node | None = parent
    while anc is not None:
        if anc.type in PY_IMPORT:
            return None
        anc = anc.parent
    if (
        parent.type in ("assignment", "augmented_assignment", "for_statement", "for_in_clause")
        and field == "left"
    ):
        return None
    if (
        parent.type in ("as_pattern", "with_item", "except_clause")
        and field in ("alias", None)
        and node.prev_sibling is not None
        and node.prev_sibling.type == "as"
    ):
        return None
    if parent.type == "attribute" and field == "attribute":
        gp = parent.parent
        if (
            gp is not None
            and gp.type in ("assignment", "augmented_assignment")
            and _field(parent) == "left"
        ):
            return None
        return "attribute"
    return "self" if node.text in (b"self", b"cls") else "name"


def _ts_kind(node: tree_sitter.Node) -> str | None:
    parent = node.parent
    assert parent is not None
    if (parent.type, _field(node)) in TS_DECL_FIELDS:
        return None
    anc: tree_sitter.Node | None = parent
    while anc is not None:
        if anc.type in TS_IMPORT:
            return None
        anc = anc.parent
    if node.type == "property_identifier":
        return "property"
    if node.type == "type_identifier":
        return "type"
    return "name"


def _walk(tree: tree_sitter.Tree, types: set[str]) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    cursor = tree.walk()
    while True:
        node = cursor.node
        assert node is not None
        if node.type in types:
            out.append(node)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def identifiers(root: Path, language: str, uses_only: bool) -> list[Position]:
    """Every identifier occurrence (or every use) in the project, in file order."""
    suffix = ".py" if language == "python" else ".ts"
    parser = _parser(language)
    types = PY_IDENT if language == "python" else TS_IDENT
    kind_of = _py_kind if language == "python" else _ts_kind
    out: list[Position] = []
    for path in source_files(root, suffix):
        if language == "typescript" and path.name.endswith(".d.ts"):
            continue
        data = path.read_bytes()
        rel = path.relative_to(root).as_posix()
        lines = data.split(b"\n")
        line_off16: list[int] = []
        acc = 0
        for raw in lines:
            line_off16.append(acc)
            acc += len(raw.decode("utf-8", "replace").encode("utf-16-le")) // 2 + 1
        for node in _walk(parser.parse(data), types):
            kind = kind_of(node)
            if kind is None and uses_only:
                continue
            line, bcol = node.start_point
            prefix = lines[line][:bcol].decode("utf-8", "replace")
            char = len(prefix.encode("utf-16-le")) // 2
            name = (node.text or b"").decode("utf-8", "replace")
            out.append(
                Position(
                    rel, line, char, len(prefix), line_off16[line] + char, name, kind or "decl"
                )
            )
    return out


def sample(root: Path, language: str, n: int, seed: int, uses_only: bool) -> list[Position]:
    """n positions drawn without replacement by random.Random(seed), sorted by (path, line, char)."""
    population = identifiers(root, language, uses_only)
    picked = random.Random(seed).sample(population, min(n, len(population)))
    return sorted(picked, key=lambda p: (p.path, p.line, p.char))
