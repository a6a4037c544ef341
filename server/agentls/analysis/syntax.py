"""Syntax facts about a piece of source: its parse errors, and a compact tree outline.

Used by tools (an edit must not add syntax errors; `parse_ast`). Positions out are
(line, UTF-16 character). Must not know: tools, LSP.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from agentls.analysis.grammar import grammar, language_for
from agentls.workspace.positions import LineIndex


def syntax_errors(path: str, data: bytes) -> list[tuple[int, int, str]] | None:
    """Parse errors of `data` as if it were `path`; None when the language is not analysed."""
    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    tree = g.parse(data)
    if not tree.root_node.has_error:
        return []
    lines = LineIndex(data)
    return [(*lines.position(start), message) for start, _end, message in g.syntax_errors(tree, data)]


#: Regions reported per document at most (a file pasted into the wrong language would
#: otherwise be thousands of squiggles).
MAX_REGIONS = 100
Position = tuple[int, int]


def error_regions(path: str, data: bytes, limit: int = MAX_REGIONS, tree: Any = None) -> list[tuple[Position, Position, str]] | None:
    """The syntax errors of `data` parsed as `path` (or of `tree`, its parse, e.g. the
    one the index keeps up to date for an open document), one per error region: ERROR
    and MISSING nodes that overlap or touch are one region (an ERROR holds ERRORs; a
    MISSING `)` sits at the end of the ERROR it closes). (start, end, message) with
    positions as (line, UTF-16 character), in text order; None when the language is not
    analysed."""
    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    if tree is None:
        tree = g.parse(data)
    if not tree.root_node.has_error:
        return []
    merged: list[tuple[int, int, list[str]]] = []
    for start, end, message in sorted(g.error_nodes(tree, data, limit=10 * limit), key=lambda e: (e[0], -e[1])):
        if merged and start <= merged[-1][1]:
            first, last, messages = merged[-1]
            says_more = end > last or message.startswith("missing")  # not an inner ERROR
            if says_more and message not in messages:
                messages.append(message)
            merged[-1] = (first, max(last, end), messages)
        elif len(merged) < limit:
            merged.append((start, end, [message]))
    lines = LineIndex(data)
    return [(lines.position(a), lines.position(b), "; ".join(m[:3])) for a, b, m in merged]


def python_error(path: str, data: bytes) -> tuple[int, int, str] | None:
    """CPython's own verdict on a `.py`/`.pyi` text (0-based line, character, message), or
    None when it compiles or is no Python. Catches what the tree-sitter grammar forgives: a
    file whose first line is indented, a `def` whose body is only a comment."""
    if not path.endswith((".py", ".pyi")):
        return None
    try:
        compile(data, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        line = max((exc.lineno or 1) - 1, 0)
        return line, max((exc.offset or 1) - 1, 0), f"{type(exc).__name__}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        return 0, 0, f"{type(exc).__name__}: {exc}"
    return None


def undefined_names(path: str, data: bytes) -> list[tuple[int, str]] | None:
    """(0-based line, name) of each name a Python file uses but neither defines nor imports
    (pyflakes' verdict); None when it is no Python or does not compile. Files with a star
    import are not judged (pyflakes cannot know what it brings)."""
    if not path.endswith((".py", ".pyi")):
        return None
    try:
        from pyflakes import checker, messages

        tree = ast.parse(data, filename=path)
    except (ImportError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found = checker.Checker(tree, filename=path).messages
    if any(isinstance(m, messages.ImportStarUsed) for m in found):
        return []
    return [
        (max(m.lineno - 1, 0), str(m.message_args[0]))
        for m in found
        if isinstance(m, messages.UndefinedName)
    ]


def self_imports(path: str, data: bytes) -> list[int]:
    """0-based lines where a Python file imports itself (`from test_x import …` in
    test_x.py, or its dotted module path): never meant, and at import time it fails or
    runs the module twice. The bare file name counts only where its folder is on
    sys.path (a top-level file; a test file, which pytest imports from its folder):
    `import logging` in pkg/logging.py is the standard library's."""
    if not path.endswith(".py"):
        return []
    try:
        tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    dotted = path[:-3].replace("/", ".")
    stem = dotted.rsplit(".", 1)[-1]
    own = {dotted}
    if "/" not in path or stem.startswith("test_") or stem.endswith("_test"):
        own.add(stem)
    own.discard("__init__")
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if own & set(names):
            out.append(max(node.lineno - 1, 0))
    return sorted(out)


def tree_outline(path: str, data: bytes, max_depth: int) -> dict[str, Any] | None:
    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    return g.outline(g.parse(data), data, max_depth)


@dataclass(frozen=True, slots=True)
class SymbolSpan:
    """A function, method or class of a source text: its dotted name (`Cart.total`), kind,
    byte range of the whole definition, where its body's header ends (`detail_end`, -1 when
    unknown) and its docstring's byte range (-1 when it has none)."""

    name: str
    kind: str
    start: int
    end: int
    detail_end: int
    doc_start: int
    doc_end: int


SPAN_KINDS = ("function", "method", "class", "interface", "enum")
#: What `symbol_spans(..., assignments=True)` adds: a variable or constant bound outside
#: any function or class (`TIMEOUT = 30`), the whole statement.
ASSIGNMENT_KINDS = ("variable", "constant")


def symbol_spans(path: str, data: bytes, assignments: bool = False) -> list[SymbolSpan] | None:
    """The definitions of `data` parsed as `path`, in source order; None when the language
    is not analysed. Read from the text given (e.g. with pending edits), not the index.
    With `assignments`, also the module's own assignments that start their line with the
    name they bind (not `Z` of `Y = Z = 4`, `B` of `A, B = …` or a `for` loop's name)."""
    from agentls.analysis.grammar import parse_file

    parsed = parse_file(path, data)
    if parsed is None:
        return None
    fi = parsed[0]
    out: list[SymbolSpan] = []
    for sym in fi.symbols:
        if sym.kind not in SPAN_KINDS and not (
            assignments and sym.kind in ASSIGNMENT_KINDS and sym.parent < 0
            and not data[data.rfind(b"\n", 0, sym.start) + 1 : sym.start].strip()
            and data.startswith(sym.name.encode(), sym.start)  # not `for x in …`
        ):
            continue
        names, parent = [sym.name], sym.parent
        while parent >= 0:
            names.insert(0, fi.symbols[parent].name)
            parent = fi.symbols[parent].parent
        out.append(
            SymbolSpan(".".join(names), sym.kind, sym.start, sym.end, sym.detail_end,
                       sym.doc_start, sym.doc_end)
        )  # fmt: skip
    return out
