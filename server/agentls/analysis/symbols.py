"""Symbol answers: a file's hierarchical outline, fuzzy workspace-symbol search, and the
outline a model reads (`parse_ast`). Must not know: LSP, tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentls.analysis.docs import detail_of
from agentls.analysis.locations import location, symbol_location
from agentls.analysis.model import Location, SymbolNode

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState

OUTLINE_KINDS = {"function", "method", "class", "variable", "constant", "field", "attribute", "property", "interface", "type", "enum", "module"}


def document_symbols(state: ReadOnlyState, path: str) -> list[SymbolNode]:
    fi = state.files[path]
    li = state.line_index(path)
    data = li.data if li else b""
    nodes: dict[int, SymbolNode] = {}
    roots: list[SymbolNode] = []
    for i, sym in enumerate(fi.symbols):
        if sym.kind not in OUTLINE_KINDS:
            continue
        scope_kind = fi.scopes[sym.scope].kind
        if scope_kind not in ("module", "class") and sym.kind not in ("function", "class", "method"):
            continue
        a, b = location(state, path, sym.start, sym.end), location(state, path, sym.sel_start, sym.sel_end)
        node = SymbolNode(sym.name, sym.kind, detail_of(data, sym), (a.start, a.end), (b.start, b.end))
        nodes[i] = node
        parent = sym.parent
        while parent >= 0 and parent not in nodes:
            parent = fi.symbols[parent].parent
        (nodes[parent].children if parent >= 0 else roots).append(node)
    return roots


def _fuzzy(query: str, name: str) -> int | None:
    """Subsequence match score (lower is better); None when `query` is not a subsequence."""
    if not query:
        return 0
    q, n = query.lower(), name.lower()
    if n == q:
        return -1000
    if n.startswith(q):
        return -500 + len(n)
    pos, score, last = 0, 0, -1
    for ch in q:
        pos = n.find(ch, pos)
        if pos < 0:
            return None
        score += (pos - last - 1) * 2
        if pos > 0 and name[pos].isupper() or pos > 0 and name[pos - 1] in "_.":
            score -= 3
        last = pos
        pos += 1
    return score + len(n)


def workspace_symbols(state: ReadOnlyState, query: str, limit: int) -> list[Location]:
    scored: list[tuple[int, str, str, int]] = []
    for name, items in state.defs_by_name().items():
        s = _fuzzy(query, name)
        if s is None:
            continue
        for p, i in items:
            scored.append((s, name, p, i))
    scored.sort(key=lambda t: (t[0], t[1], t[2]))
    return [symbol_location(state, p, i) for _, _, p, i in scored[:limit]]


def outline(state: ReadOnlyState, path: str, max_depth: int) -> dict[str, Any]:
    from agentls.analysis.syntax import tree_outline

    data = state.workspace.read_bytes(path)
    if data is None:
        raise FileNotFoundError(path)
    fi = state.files.get(path)
    symbols = [
        {"name": n.name, "kind": n.kind, "detail": n.detail, "line": n.selection[0][0], "children": [
            {"name": c.name, "kind": c.kind, "detail": c.detail, "line": c.selection[0][0]} for c in n.children
        ]}
        for n in (document_symbols(state, path) if fi else [])
    ]
    return {"path": path, "symbols": symbols, "tree": tree_outline(path, data, max_depth)}
