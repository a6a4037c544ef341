"""One-line edits re-indexed: type one character after a random identifier and undo it,
through `Workspace.change` → `WorkspaceIndex.update_file(path, data, edits)`; and the
floor for the same edits, tree-sitter's own incremental re-parse.
Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from bench_positions import identifiers
from bench_report import summary_ms

SEED = 1234


def edit_reindex(root: Path, count: int) -> dict[str, Any]:
    from agentls.analysis.index import WorkspaceIndex
    from agentls.workspace import Workspace
    from agentls.workspace.documents import TextChange

    ws = Workspace(root)
    idx = WorkspaceIndex(root, workspace=ws, cache_dir=False, jobs=0)
    idx.build()
    occurrences = identifiers(root, "python", uses_only=False)
    picks = random.Random(SEED).sample(occurrences, count)
    forward: list[float] = []
    undo: list[float] = []
    versions: dict[str, int] = {}
    slow: list[tuple[float, str, int]] = []
    for pos in picks:
        if pos.path not in versions:  # didOpen: the index keeps the document's tree from now on
            doc = ws.open(pos.path, (root / pos.path).read_text(encoding="utf-8"), 0, "python")
            idx.update_file(pos.path, doc.data)
            versions[pos.path] = 0
        at = (pos.line, pos.char + len(pos.name.encode("utf-16-le")) // 2)
        for text, end, bucket in (("x", at, forward), ("", (at[0], at[1] + 1), undo)):
            versions[pos.path] += 1
            doc, edits = ws.change(pos.path, [TextChange(text, at, end)], versions[pos.path])
            t = time.perf_counter()
            idx.update_file(pos.path, doc.data, edits)
            bucket.append(time.perf_counter() - t)
            if text:
                slow.append((bucket[-1], pos.path, doc.data.count(b"\n")))
    slow.sort(reverse=True)
    return {
        "edit": summary_ms(forward),
        "undo": summary_ms(undo),
        "all": summary_ms(forward + undo),
        "slowest_edits": [
            {"ms": round(t * 1000, 2), "path": p, "lines": n} for t, p, n in slow[:8]
        ],
    }


def bare_incremental(root: Path, count: int) -> dict[str, Any]:
    """The floor for edit re-indexing: tree-sitter's own incremental re-parse of the same
    edits (Tree.edit + Parser.parse(new, old_tree)), nothing extracted."""
    import tree_sitter
    import tree_sitter_python

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    occurrences = identifiers(root, "python", uses_only=False)
    picks = random.Random(SEED).sample(occurrences, count)
    state: dict[str, tuple[bytes, tree_sitter.Tree]] = {}
    times: list[float] = []
    full: list[float] = []
    for pos in picks:
        if pos.path not in state:
            data = (root / pos.path).read_bytes()
            state[pos.path] = (data, parser.parse(data))
        data, tree = state[pos.path]
        line_start = sum(len(ln) + 1 for ln in data.split(b"\n")[: pos.line])
        col = len(
            data[line_start:].decode("utf-8", "replace")[: pos.col + len(pos.name)].encode("utf-8")
        )
        at = line_start + col
        new = data[:at] + b"x" + data[at:]
        tree.edit(at, at, at + 1, (pos.line, col), (pos.line, col), (pos.line, col + 1))
        t = time.perf_counter()
        tree = parser.parse(new, tree)
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        parser.parse(new)
        full.append(time.perf_counter() - t)
        tree.edit(at, at + 1, at, (pos.line, col), (pos.line, col + 1), (pos.line, col))
        state[pos.path] = (data, parser.parse(data, tree))
    return {"incremental_parse": summary_ms(times), "full_parse": summary_ms(full)}
