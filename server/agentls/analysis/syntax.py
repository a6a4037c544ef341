"""Syntax facts about a piece of source: its parse errors, and a compact tree outline.

Used by tools (an edit must not add syntax errors; `parse_ast`). Positions out are
(line, UTF-16 character). Must not know: tools, LSP.
"""

from __future__ import annotations

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


def tree_outline(path: str, data: bytes, max_depth: int) -> dict[str, Any] | None:
    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    return g.outline(g.parse(data), data, max_depth)
