"""Index build benchmark: agentls cold and warm index vs a bare tree-sitter parse and ctags.

For each project (default sympy and django) and each repetition, in this order, each in
its own fresh process so that memory numbers are its own:
  bare  — one process walks the root for *.py (no ignore rules), reads and parses every
          file with tree_sitter.Parser(tree_sitter_python) and drops the tree;
  ctags — `ctags -R -f <tmp> <root>`;
  cold  — `WorkspaceIndex(root, cache_dir=<fresh tmp>, jobs=0).build()`;
  warm  — the same in a new process, same cache_dir;
  nocache — `WorkspaceIndex(root, cache_dir=False, jobs=0).build()` (no cache written),
          to separate the cost of writing the cache from parsing + extraction.
Memory: the measured process's VmHWM and ru_maxrss, its RSS after build + gc.collect(),
workers' ru_maxrss (RUSAGE_CHILDREN), and the sampled peak of RSS summed over the process
tree (over-counts pages shared by forked workers).

    .venv/bin/python tests/bench/bench_index.py [--projects sympy,django] [--repeat 3]

Writes tests/bench/results/index.json. Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_data import python_project, source_files
from bench_memory import TreeRss, memory
from bench_report import fmt, machine, note_load, ratio, table, write_results


# --- child side: runs in a fresh process, prints one JSON line -------------------------
def child_bare(root: Path) -> dict[str, Any]:
    import tree_sitter
    import tree_sitter_python

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    with TreeRss() as tree:
        t0 = time.perf_counter()
        files = source_files(root, ".py")
        t_walk = time.perf_counter() - t0
        read = parse = 0.0
        total = 0
        for path in files:
            a = time.perf_counter()
            data = path.read_bytes()
            b = time.perf_counter()
            parser.parse(data)
            read += b - a
            parse += time.perf_counter() - b
            total += len(data)
        wall = time.perf_counter() - t0
    return {
        "wall_s": wall,
        "walk_s": t_walk,
        "read_s": read,
        "parse_s": parse,
        "files": len(files),
        "bytes": total,
        **memory(tree),
    }


def child_index(root: Path, cache_dir: Path | bool) -> dict[str, Any]:
    t0 = time.perf_counter()
    from agentls.analysis.index import WorkspaceIndex

    import_s = time.perf_counter() - t0
    with TreeRss() as tree:
        t0 = time.perf_counter()
        idx = WorkspaceIndex(root, cache_dir=cache_dir, jobs=0)
        stats = idx.build()
        wall = time.perf_counter() - t0
    stats = stats if isinstance(stats, dict) else {}
    files = stats.get("files")
    out = {
        "wall_s": wall,
        "import_s": import_s,
        "files": files,
        "parsed": stats.get("parsed"),
        "cached": stats.get("cached"),
        **memory(tree),
    }
    del idx
    return out


def child_main(kind: str, root: str, cache: str | None) -> None:
    if kind == "bare":
        result = child_bare(Path(root))
    elif kind == "nocache":
        result = child_index(Path(root), False)
    else:
        result = child_index(Path(root), Path(cache or ""))
    print(json.dumps(result), flush=True)


# --- parent side ------------------------------------------------------------------------
def run_child(kind: str, root: Path, cache: Path | None = None) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", kind, str(root)] + ([str(cache)] if cache else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
        return {"error": f"exit {proc.returncode}: {tail}"}
    return json.loads(lines[-1])


def run_ctags(root: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tags"
        t0 = time.perf_counter()
        proc = subprocess.run(
            ["ctags", "-R", "-f", str(out), str(root)], capture_output=True, text=True
        )
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            return {"error": proc.stderr.strip()[-300:]}
        tags = sum(
            1 for ln in out.read_text(errors="replace").splitlines() if not ln.startswith("!_")
        )
    return {"wall_s": wall, "tags": tags}


def _median(runs: list[dict[str, Any]], key: str) -> float | None:
    vals = [r[key] for r in runs if key in r and r[key] is not None]
    if not vals:
        return None
    if all(isinstance(v, int) for v in vals):
        return statistics.median_low(vals)
    return round(statistics.median(vals), 4)


def _aggregate(runs: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in runs if "error" not in r]
    out: dict[str, Any] = {"runs": runs}
    if not ok:
        out["error"] = runs[0].get("error") if runs else "not run"
        return out
    keys = [k for k, v in ok[0].items() if isinstance(v, int | float) and not isinstance(v, bool)]
    out["median"] = {k: _median(ok, k) for k in keys}
    out["min_wall_s"] = round(min(r["wall_s"] for r in ok), 4)
    return out


def bench_project(name: str, repeat: int, with_index: bool) -> dict[str, Any]:
    root = python_project(name)
    for path in source_files(root, ""):  # warm the page cache for every contender
        path.read_bytes()
    runs: dict[str, list[dict[str, Any]]] = {
        "bare": [],
        "ctags": [],
        "cold": [],
        "warm": [],
        "nocache": [],
    }
    loads: list[list[float]] = []
    for i in range(repeat):
        loads.append(note_load(f"{name} run {i + 1}/{repeat}"))
        runs["bare"].append(run_child("bare", root))
        runs["ctags"].append(run_ctags(root))
        if with_index:
            cache = Path(tempfile.mkdtemp(prefix=f"agentls-bench-{name}-"))
            try:
                runs["cold"].append(run_child("cold", root, cache))
                runs["warm"].append(run_child("warm", root, cache))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
            runs["nocache"].append(run_child("nocache", root))
    res: dict[str, Any] = {"root": str(root), "loadavg_per_run": loads}
    for kind, kind_runs in runs.items():
        res[kind] = _aggregate(kind_runs) if kind_runs else {"error": "skipped"}
    med = {k: (res[k].get("median") or {}) for k in runs}
    res["ratios"] = {
        "cold_over_bare": ratio(med["cold"].get("wall_s"), med["bare"].get("wall_s")),
        "warm_over_cold": ratio(med["warm"].get("wall_s"), med["cold"].get("wall_s")),
        "nocache_over_bare": ratio(med["nocache"].get("wall_s"), med["bare"].get("wall_s")),
        "ctags_over_bare": ratio(med["ctags"].get("wall_s"), med["bare"].get("wall_s")),
    }
    return res


def print_project(name: str, res: dict[str, Any]) -> None:
    rows = []
    for kind in ("bare", "ctags", "cold", "warm", "nocache"):
        r = res[kind]
        m = r.get("median") or {}
        rows.append(
            [
                kind,
                m.get("wall_s"),
                r.get("min_wall_s"),
                m.get("files"),
                m.get("vmhwm_mb"),
                m.get("rss_after_gc_mb"),
                m.get("children_ru_maxrss_mb"),
                m.get("tree_peak_rss_mb"),
                r.get("error", ""),
            ]
        )
    print(f"\n== {name} ({res['root']})")
    print(
        table(
            [
                "run",
                "median s",
                "min s",
                "files",
                "VmHWM MB",
                "RSS gc MB",
                "worker max MB",
                "tree peak MB",
                "error",
            ],
            rows,
        )
    )
    print("ratios: " + ", ".join(f"{k}={fmt(v)}" for k, v in res["ratios"].items()))


def targets(results: dict[str, Any]) -> dict[str, Any]:
    s = results.get("sympy")
    if not s:
        return {}
    cold = s["cold"].get("median") or {}
    return {
        "sympy_cold_over_bare<=1.2": s["ratios"]["cold_over_bare"],
        "sympy_cold_without_cache_write_over_bare": s["ratios"]["nocache_over_bare"],
        "sympy_warm_over_cold<=0.10": s["ratios"]["warm_over_cold"],
        "sympy_index_vmhwm_mb<=400": cold.get("vmhwm_mb"),
        "sympy_index_tree_peak_mb": cold.get("tree_peak_rss_mb"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--projects", default="sympy,django")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--peers-only", action="store_true", help="skip agentls (bare parse and ctags only)"
    )
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_main(args.child[0], args.child[1], args.child[2] if len(args.child) > 2 else None)
        return
    results: dict[str, Any] = {}
    for name in args.projects.split(","):
        results[name] = bench_project(name, args.repeat, not args.peers_only)
        print_project(name, results[name])
    summary = targets(results)
    if summary:
        print("\ntargets: " + ", ".join(f"{k}: {fmt(v)}" for k, v in summary.items()))
    write_results(
        "index",
        {
            "repeat": args.repeat,
            "targets": summary,
            "projects": results,
            "end": machine()["loadavg"],
        },
    )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
