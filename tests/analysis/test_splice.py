"""An edit inside a function re-extracts only that function (splice.py). Whatever path an
edit takes, the index must equal a full extraction of the new text: checked here over
seeded random edits to real files (this repository's own modules and the TS fixtures)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from agentls.analysis import grammar
from agentls.analysis.grammar import parse_file
from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.model import FileIndex, keyword_callee
from agentls.workspace import TextChange

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    "server/agentls/analysis/resolve.py",
    "server/agentls/analysis/index.py",
    "examples/sample-workspace/src/shop/cart.py",
    "server/agentls/tools/proposals/store.py",
    "tests/analysis/fixtures/python/basic.py",
    "tests/analysis/fixtures/typescript/basic.ts",
    "tests/analysis/fixtures/tsx/component.tsx",
    "tests/analysis/fixtures/javascript/basic.js",
]
EDITS = ["x", " ", "\n", "", "foo", "self.bar = 1\n", "(", "def inner():\n", "_q", "1"]


def _recv(names: list[str], r: int) -> object:
    """A receiver as text: a dotted name, `kw:<callee>` for a keyword argument, or its marker."""
    if r >= 0:
        return names[r]
    return f"kw:{names[keyword_callee(r)]}" if keyword_callee(r) >= 0 else r


def _state(fi: FileIndex) -> tuple[object, ...]:
    def rows(items: list[object]) -> list[tuple[object, ...]]:
        return [tuple(getattr(o, f) for f in o.__slots__) for o in items]  # type: ignore[attr-defined]

    occ = None
    if fi.has_occurrences:
        t = fi.table()
        occ = [(t.text(i), t.start[i], _recv(t.names, t.recv[i])) for i in range(len(t.start))]
    return rows(fi.scopes), rows(fi.symbols), rows(fi.imports), rows(fi.exports), fi.has_errors, occ, fi.ascii_lines


@pytest.mark.parametrize("rel", FILES)
@pytest.mark.parametrize("with_occurrences", [False, True])
def test_incremental_index_equals_a_full_extraction(tmp_path: Path, rel: str, with_occurrences: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / Path(rel).name
    target.write_bytes((ROOT / rel).read_bytes())
    ix = WorkspaceIndex(tmp_path, cache_dir=False, jobs=1)
    ix.build()
    ws = ix.workspace
    name = target.name
    ws.open(name, target.read_text("utf-8"), 0)
    ix.update_file(name)
    spliced = 0
    real = grammar.splice_edit

    def counting(*args: object, **kw: object) -> object:
        nonlocal spliced
        out = real(*args, **kw)  # type: ignore[arg-type]
        spliced += out is not None
        return out

    monkeypatch.setattr("agentls.analysis.indexing.splice_edit", counting)
    rng = random.Random(f"{rel}:{with_occurrences}")
    version = 0

    def apply(text: str, start: tuple[int, int], end: tuple[int, int]) -> None:
        nonlocal version
        version += 1
        if with_occurrences:
            ix.ensure_occurrences(name)
        doc, edits = ws.change(name, [TextChange(text, start, end)], version)
        got = ix.update_file(name, doc.data, edits)
        want = parse_file(name, doc.data, -1, occurrences=got is not None and got.has_occurrences)
        assert got is not None and want is not None
        assert _state(got) == _state(want[0]), f"edit {version}: {text!r} at {start}-{end}"

    for _ in range(60):  # each edit, then its undo, so the file does not decay
        lines = ws.read_text(name).split("\n")
        line = rng.randrange(len(lines))
        col = rng.randrange(len(lines[line]) + 1)
        end_col = min(len(lines[line]), col + rng.choice([0, 0, 1, 3]))
        text = rng.choice(EDITS)
        removed = lines[line][col:end_col]
        apply(text, (line, col), (line, end_col))
        added = text.split("\n")
        end = (line + len(added) - 1, (col if len(added) == 1 else 0) + len(added[-1]))
        apply(removed, (line, col), end)
    least = 10 if rel.endswith(".py") else 1  # the TS/JS fixtures are mostly declarations
    assert spliced >= least, f"only {spliced} of 120 edits were spliced: the test does not exercise splice.py"
