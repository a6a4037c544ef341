"""Answers convert byte offsets to LSP positions from the line starts the index keeps for
an all-ASCII file (built, spliced, and loaded from the cache), without reading the file;
a file with other characters still gets UTF-16 columns from its text. (The asked position
itself is read from the asked file: its line ends matter.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex
from agentls.workspace import TextChange, Workspace
from tests.analysis.workspace import position, write_files

FILES = {
    "lib.py": "def helper(x):\n    return x\n",
    "use.py": "from lib import helper\n\n\ndef main():\n    return helper(2) + helper(3)\n",
    "wide.py": "from lib import helper\ns = 'é𝄞'; helper(1)\n",
}


def _refs(ix: WorkspaceIndex) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    return sorted((loc.path, loc.start, loc.end) for loc in ix.references("lib.py", 0, 5).locations)


def _no_reads(monkeypatch: pytest.MonkeyPatch, ix: WorkspaceIndex, allowed: set[str]) -> list[str]:
    reads: list[str] = []
    real = ix.workspace.read_bytes

    def read(path: str) -> bytes | None:
        rel = ix.workspace.relative(path)
        reads.append(rel)
        assert rel in allowed, f"{rel} was read to answer"
        return real(path)

    monkeypatch.setattr(ix.workspace, "read_bytes", read)
    return reads


def test_positions_come_from_the_index_built_and_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_files(tmp_path, FILES)
    first = WorkspaceIndex(root, cache_dir=tmp_path / "cache", jobs=1)
    first.build()
    want = [
        ("lib.py", (0, 4), (0, 10)),
        ("use.py", (0, 16), (0, 22)),
        ("use.py", (4, 11), (4, 17)),
        ("use.py", (4, 23), (4, 29)),
        ("wide.py", (0, 16), (0, 22)),
        ("wide.py", (1, 11), (1, 17)),  # é: 2 bytes, 1 UTF-16 unit; 𝄞: 4 bytes, 2 units
    ]
    assert first.files["use.py"].ascii_lines is not None
    assert first.files["wide.py"].ascii_lines is None
    reads = _no_reads(monkeypatch, first, {"lib.py", "wide.py"})
    assert _refs(first) == want
    assert sorted(set(reads)) == ["lib.py", "wide.py"]  # the asked file and the one with wider characters

    warm = WorkspaceIndex(root, cache_dir=tmp_path / "cache", jobs=1)
    assert warm.build()["cached"] == 3
    assert warm.files["use.py"].ascii_lines == first.files["use.py"].ascii_lines
    _no_reads(monkeypatch, warm, {"lib.py", "use.py", "wide.py"})
    assert _refs(warm) == want
    assert warm.definition(*("use.py", *position(root, "use.py", "helper(2)"))).locations[0].start == (0, 4)


def test_line_starts_follow_an_edit(tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    ws = Workspace(root)
    ix = WorkspaceIndex(root, workspace=ws, cache_dir=False, jobs=1)
    ix.build()
    ws.open("use.py", (root / "use.py").read_text(), 1)
    doc, edits = ws.change("use.py", [TextChange("\n\n", (4, 0), (4, 0))], 2)
    ix.update_file("use.py", doc.data, edits)
    assert [loc.start for loc in ix.references("lib.py", 0, 5).locations if loc.path == "use.py"] == [(0, 16), (6, 11), (6, 23)]
    assert ix.files["use.py"].ascii_lines is not None and len(ix.files["use.py"].ascii_lines) == 8
