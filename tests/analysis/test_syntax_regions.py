"""`error_regions`: the syntax errors the editor shows, one per error region — ERROR and
MISSING nodes that overlap or touch are one region; an inner ERROR adds no message, a
MISSING token does. Positions are (line, UTF-16 character)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.grammar import grammar, language_for
from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.syntax import error_regions
from agentls.workspace import Workspace
from agentls.workspace.documents import TextChange

CASES = [
    ("ok.py", "def f():\n    return 1\n", []),
    ("two.py", "def total(prices):\n    return 1 +* 2\n\n\ndef g(x):\n    return x(1,,)\n",
     [((1, 4), (1, 17), "syntax error near 'return 1 +* 2'"), ((5, 15), (5, 16), "syntax error near ','")]),
    ("nested.py", "if x\n    y = (1 +\n", [((0, 0), (1, 12), "syntax error near 'if x'")]),
    ("missing.py", "def f(:\n    return [1,\n", [((0, 0), (2, 0), "syntax error near 'def f(:'; missing ')'")]),
    ("nested.ts", "function f( {\n  return 1;\n}\nconst x = ;\n", [((0, 0), (3, 9), "syntax error near 'function f( {'")]),
    ("missing.ts", "const v = Math.max(1, 2;\n", [((0, 23), (0, 23), "missing ')'")]),
    ("utf16.ts", "const s = '😀'; x = = 1;\n", [((0, 20), (0, 21), "syntax error near '='")]),  # 😀: 2 UTF-16 units
]


@pytest.mark.parametrize(("path", "text", "regions"), CASES, ids=[c[0] for c in CASES])
def test_error_regions(path: str, text: str, regions: list[object]) -> None:
    assert error_regions(path, text.encode()) == regions


def test_not_analysed_and_capped() -> None:
    assert error_regions("notes.txt", b"(((") is None
    many = "".join(f"x{i} = (1 2)\n" for i in range(50)).encode()
    assert len(error_regions("many.py", many) or []) == 50
    assert len(error_regions("many.py", many, limit=7) or []) == 7


def test_an_open_documents_errors_come_from_the_tree_kept_current(tmp_path: Path) -> None:
    """The index's incrementally re-parsed tree of an open document gives the same regions
    as a fresh parse of the buffer, edit after edit; a file that is not open has no kept
    tree (None: the caller parses)."""
    (tmp_path / "m.py").write_text("def f():\n    return 1\n", "utf-8")
    (tmp_path / "closed.py").write_text("x = (\n", "utf-8")
    ws = Workspace(tmp_path)
    ix = WorkspaceIndex(tmp_path, workspace=ws, cache_dir=False, jobs=1)
    ix.build()
    doc = ws.open("m.py", "def f():\n    return 1\n", 1, "python")
    ix.update_file("m.py", doc.data)
    assert ix.syntax_errors("m.py", doc.data) == []
    steps = [TextChange("(", (1, 11), (1, 11)), TextChange("\ndef g(:\n", (1, 12), (1, 12)), TextChange(")", (1, 12), (1, 12))]
    seen = []
    for version, change in enumerate(steps, start=2):
        doc, edits = ws.change("m.py", [change], version)
        ix.update_file("m.py", doc.data, edits)
        kept = ix.syntax_errors("m.py", doc.data)
        assert kept == error_regions("m.py", doc.data), doc.data
        seen.append(len(kept or []))
    assert seen[0] >= 1 and seen[-1] == 1  # `1(`, then `def g(:` alone is left
    assert ix.syntax_errors("closed.py", b"x = (\n") is None


@pytest.mark.parametrize(("path", "text"), [(c[0], c[1]) for c in CASES], ids=[c[0] for c in CASES])
def test_the_pruned_walk_finds_what_the_error_query_finds(path: str, text: str) -> None:
    g = grammar(language_for(path))  # type: ignore[arg-type]
    data = text.encode()
    tree = g.parse(data)
    assert g.error_nodes(tree, data) == g.syntax_errors(tree, data, limit=10**6)
