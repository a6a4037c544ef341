"""What the editing features cost: the syntax diagnostics of an open document, and a
rename's plan.

1. Diagnostics, on the largest Python files of the venv's site-packages and the largest
   `.ts`/`.js` files of `client-vscode/node_modules` that the server analyses (≤ 4 MB):
   a full parse (`error_regions`) of the file as is and with `(` put at the start of its
   middle line — what the server does before the index is ready —; the time that
   one-character edit takes to re-index (`update_file` with the edit, what didChange
   costs anyway); then reading the broken buffer's errors from the tree the index keeps
   for the open document (`WorkspaceIndex.syntax_errors`, what the server does 0.3 s
   after typing stops). Both readings are checked to agree.
2. Rename (`WorkspaceIndex.rename`, what `textDocument/rename` computes on the loop): the
   top-level functions and classes of this repository's `server/` most used across it,
   each renamed from its definition; sites and files per plan.

Run on demand: `.venv/bin/python tests/bench/bench_diagnostics.py [--files 20] [--symbols 15]`;
writes `results/diagnostics_rename.json`. Must not know: agentls beyond its public API.
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import REPO, note_load, summary_ms, table, write_results

from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.rename import RenameRefused
from agentls.analysis.syntax import error_regions
from agentls.workspace import Workspace
from agentls.workspace.documents import MAX_FILE_BYTES, TextChange


def largest(root: Path, suffixes: tuple[str, ...], count: int) -> list[Path]:
    files = [p for p in root.rglob("*") if p.suffix in suffixes and p.is_file() and not p.name.endswith(".d.ts") and p.stat().st_size <= MAX_FILE_BYTES]
    return sorted(files, key=lambda p: p.stat().st_size, reverse=True)[:count]


def middle_line(data: bytes) -> int:
    return data.count(b"\n") // 2


def best_of(repeat: int, work: Any, *args: Any) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = work(*args)
        best = min(best, time.perf_counter() - t)
    return best, out


def diagnostics(files: list[Path], tmp: Path, repeat: int = 3) -> dict[str, Any]:
    """Per file: a full parse of the buffer as is and with `(` put at the start of its
    middle line (what the server does before the index is ready), and, for files the
    index analyses, the same broken buffer's errors read from the tree the index keeps for
    the open document after the one-character edit (what it does afterwards)."""
    rows: list[dict[str, Any]] = []
    buckets: dict[str, list[float]] = {"parse_clean": [], "parse_broken": [], "kept_broken": [], "edit_reindex": []}
    for n, path in enumerate(files):
        data = path.read_bytes()
        root = tmp / f"f{n}"
        root.mkdir(parents=True)
        rel = path.name
        (root / rel).write_bytes(data)
        lines = data.split(b"\n")
        lines[middle_line(data)] = b"(" + lines[middle_line(data)]
        bad = b"\n".join(lines)
        clean_s, _ = best_of(repeat, error_regions, rel, data)
        parse_s, regions = best_of(repeat, error_regions, rel, bad)
        row: dict[str, Any] = {"file": rel, "kb": round(len(data) / 1024), "lines": data.count(b"\n"), "parse_clean_ms": round(clean_s * 1000, 2), "parse_broken_ms": round(parse_s * 1000, 2), "regions": len(regions or [])}
        buckets["parse_clean"].append(clean_s)
        buckets["parse_broken"].append(parse_s)
        if len(data) <= MAX_FILE_BYTES:
            ws = Workspace(root)
            ix = WorkspaceIndex(root, workspace=ws, cache_dir=False, jobs=1)
            ix.build()
            doc = ws.open(rel, data.decode("utf-8", "replace"), 1, None)
            ix.update_file(rel, doc.data)
            doc, edits = ws.change(rel, [TextChange("(", (middle_line(data), 0), (middle_line(data), 0))], 2)
            t = time.perf_counter()
            ix.update_file(rel, doc.data, edits)
            edit_s = time.perf_counter() - t
            kept_s, kept = best_of(repeat, ix.syntax_errors, rel, doc.data)
            assert kept == error_regions(rel, doc.data), rel  # the same answer either way
            row.update(edit_reindex_ms=round(edit_s * 1000, 2), kept_broken_ms=round(kept_s * 1000, 2))
            buckets["edit_reindex"].append(edit_s)
            buckets["kept_broken"].append(kept_s)
        rows.append(row)
    return {"files": rows, **{k: summary_ms(v) for k, v in buckets.items()}}


def renames(root: Path, count: int) -> dict[str, Any]:
    ix = WorkspaceIndex(root, cache_dir=False, jobs=0)
    build = ix.build()
    candidates = list(dict.fromkeys((rel, sym.name) for rel, fi in ix.files.items() for sym in fi.symbols if sym.parent < 0 and sym.kind in ("function", "class")))
    by_uses = sorted(candidates, key=lambda c: len(ix.find_references_by_name(c[1]).locations), reverse=True)[: count * 2]
    rows, times = [], []
    for rel, name in by_uses:
        if len(rows) >= count:
            break
        where = next(s for s in ix.files[rel].symbols if s.name == name and s.parent < 0)
        li = ix.line_index(rel)
        if li is None:
            continue
        line, char = li.position(where.sel_start)
        t = time.perf_counter()
        try:
            plan = ix.rename(rel, line, char, f"{name}_renamed")
        except RenameRefused as exc:
            rows.append({"symbol": f"{rel}:{name}", "refused": str(exc)})
            continue
        times.append(time.perf_counter() - t)
        rows.append({"symbol": f"{rel}:{name}", "sites": plan.count, "files": len(plan.sites), "ms": round(times[-1] * 1000, 2)})
    return {"index": build, "renames": rows, "latency": summary_ms(times)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--symbols", type=int, default=15)
    args = parser.parse_args()
    load = note_load("start")
    site = Path(sysconfig.get_paths()["purelib"])
    py = largest(site, (".py",), args.files)
    ts = largest(REPO / "client-vscode" / "node_modules", (".ts", ".js"), args.files)
    with tempfile.TemporaryDirectory() as tmp:
        result = {"python": diagnostics(py, Path(tmp) / "py"), "typescript": diagnostics(ts, Path(tmp) / "ts")}
    result.update(rename=renames(REPO / "server", args.symbols), load_before=load)
    for lang in ("python", "typescript"):
        print(f"\n{lang}: syntax errors per file (best of 3)")
        cols = ["file", "kb", "lines", "parse_clean_ms", "parse_broken_ms", "regions", "edit_reindex_ms", "kept_broken_ms"]
        print(table(cols, [[r.get(c) for c in cols] for r in result[lang]["files"]]))
        for key in ("parse_clean", "parse_broken", "edit_reindex", "kept_broken"):
            print(f"{key}: {result[lang][key]}")
    print("\nrename from the definition (server/)")
    print(table(["symbol", "sites", "files", "ms"], [[r["symbol"], r.get("sites"), r.get("files"), r.get("ms", r.get("refused"))] for r in result["rename"]["renames"]]))
    print(f"latency {result['rename']['latency']}")
    write_results("diagnostics_rename", result)


if __name__ == "__main__":
    sys.exit(main())
