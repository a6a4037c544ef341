"""The repo map: the workspace's files and their top definitions with signatures, ranked by
how much the rest of the code refers to them, cut to a character budget (after Aider's
repo map, with the index's word sets standing in for its tree-sitter reference tags).

Ranking: a file graph whose edge F → G is weighted by how many of G's module- and
class-level names F's words contain (names defined in more than MAX_DEFINERS files left
out); PageRank over it (stopping once it converges), personalised towards the `focus`
files (those a goal names). Inside a file, definitions are listed in source order, and
when the budget is short the most referred-to ones are kept. Files that do not fit are
named on one last line while that fits. Must not know: tools, the agent, LSP.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from agentls.analysis.model import SymbolNode
from agentls.analysis.symbols import document_symbols

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState

SHOWN_KINDS = frozenset({"function", "method", "class", "interface", "type", "enum", "constant", "variable"})
DAMPING = 0.85
ITERATIONS = 30
#: Ranking stops early once an iteration moves the ranks by less than this in all.
CONVERGED = 1e-6
#: Workspaces with more files than this rank by in-degree alone (no PageRank iterations).
MAX_RANKED_FILES = 5000
#: A name defined in more files than this (`create`, `get`, `id`) links no file to another:
#: it says nothing of which file a use means, and it made the graph of a 2,000-file package
#: dense enough that ranking took a minute.
MAX_DEFINERS = 8


def _flatten(nodes: list[SymbolNode], depth: int = 0) -> Iterable[tuple[int, SymbolNode]]:
    for node in nodes:
        if node.kind in SHOWN_KINDS:
            yield depth, node
            if depth == 0 and node.kind in ("class", "interface"):
                yield from _flatten(node.children, depth + 1)


def _pagerank(edges: dict[str, dict[str, float]], files: list[str], focus: set[str]) -> dict[str, float]:
    n = len(files)
    personal = [1.0 if f in focus else 0.0 for f in files] if focus else [1.0] * n
    total = sum(personal) or 1.0
    personal = [v / total for v in personal]
    at = {f: i for i, f in enumerate(files)}
    if n > MAX_RANKED_FILES:
        indegree = [0.0] * n
        for weights in edges.values():
            for g, w in weights.items():
                indegree[at[g]] += w
        return {f: indegree[i] + personal[i] for i, f in enumerate(files)}
    # each file's out-edges as (target index, share of its out-weight), once
    out: list[list[tuple[int, float]]] = []
    for f in files:
        weights = edges.get(f) or {}
        weight = sum(weights.values())
        out.append([(at[g], w / weight) for g, w in weights.items()] if weight else [])
    rank = list(personal)
    for _ in range(ITERATIONS):
        new = [(1 - DAMPING) * p for p in personal]
        dangling = DAMPING * sum(rank[i] for i in range(n) if not out[i])
        for i, links in enumerate(out):
            r = DAMPING * rank[i]
            for j, share in links:
                new[j] += r * share
        new = [v + dangling * p for v, p in zip(new, personal, strict=True)]
        moved = sum(abs(a - b) for a, b in zip(new, rank, strict=True))
        rank = new
        if moved < CONVERGED:
            break
    return dict(zip(files, rank, strict=True))


def repo_map(state: ReadOnlyState, budget_chars: int, focus: Iterable[str] = ()) -> str:
    """The map as text: `path` lines, each followed by its definitions' signatures."""
    files = sorted(state.files)
    if not files:
        return ""
    defs = state.defs_by_name()
    refs: dict[str, int] = {}  # (name) → files other than its own that use it
    edges: dict[str, dict[str, float]] = {f: {} for f in files}
    for f in files:
        for word in state.words(f):
            definers = defs.get(word, ())
            if len(definers) > MAX_DEFINERS:
                continue
            for path, _i in definers:
                if path != f:
                    edges[f][path] = edges[f].get(path, 0.0) + 1.0
                    refs[f"{path}\0{word}"] = refs.get(f"{path}\0{word}", 0) + 1
    focus_set = {f for f in focus if f in state.files}
    rank = _pagerank(edges, files, focus_set)
    ordered = sorted(files, key=lambda f: (f not in focus_set, -rank[f], f))
    lines: list[str] = []
    used = 0
    left: list[str] = []
    for f in ordered:
        if used + len(f) + 1 > budget_chars:  # not even its name fits: only named at the end
            left.append(f)
            continue
        rel = state.indexed(f)  # as the index's document_symbols asks: by the file's real path
        entries = list(_flatten(document_symbols(state, rel))) if rel else []
        block = [f]
        for depth, node in entries:
            block.append("  " * (depth + 1) + node.detail.split("\n", 1)[0])
        cost = sum(len(x) + 1 for x in block)
        if used + cost > budget_chars and entries:
            # keep the most referred-to definitions that fit
            scored = sorted(
                range(len(entries)),
                key=lambda i: -refs.get(f"{f}\0{entries[i][1].name}", 0),
            )
            keep: set[int] = set()
            room = budget_chars - used - len(f) - 1
            for i in scored:
                size = len(block[i + 1]) + 1
                if size <= room:
                    keep.add(i)
                    room -= size
            block = [f] + [block[i + 1] for i in sorted(keep)]
            cost = sum(len(x) + 1 for x in block)
        if used + cost > budget_chars:
            left.append(f)
            continue
        lines += block
        used += cost
    if left:
        tail = "Other files: " + ", ".join(left)
        if used + len(tail) > budget_chars:
            tail = f"({len(left)} more files not shown)"
        lines.append(tail)
    return "\n".join(lines)
