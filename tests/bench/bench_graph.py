"""Python import graph benchmark: agentls `idx.import_graph()` vs grimp, edge for edge.

Edges are (importer module, imported module) with both ends inside the package. grimp's
side is `grimp.build_graph(pkg, cache_dir=None)` (external packages excluded) and, for
every module m in `graph.modules`, every module in `graph.find_modules_directly_imported_by(m)`.
grimp's rules, checked on a fixture package (see README): `import a.b.c` is one edge to
a.b.c (no edges to the ancestors a, a.b); `from a.b import x` is an edge to a.b.x when
a.b.x is a module, else to a.b; relative imports resolve against the importer's package;
imports inside functions, try/except and TYPE_CHECKING blocks count; a module importing
itself (`from pkg.m import x` inside pkg/m.py) is a self edge and counts; a relative import
above the top package is dropped; `import pkg.missing` resolves to its nearest existing
ancestor. agentls's side is `WorkspaceIndex(root, cache_dir=False, jobs=0).build()` then
`import_graph()`, keeping edges whose both ends are the package or start with "pkg.".
Each tool runs in a fresh process; times are wall clock of build (+ graph extraction).

    .venv/bin/python tests/bench/bench_graph.py [--projects sympy,django,rich]

Writes tests/bench/results/graph.json. Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_data import PYTHON_PROJECTS, python_project
from bench_report import note_load, ratio, table, write_results

Edge = tuple[str, str]


def _internal(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def child_grimp(root: Path, package: str) -> dict[str, Any]:
    sys.path.insert(0, str(root))
    import grimp

    t0 = time.perf_counter()
    graph = grimp.build_graph(package, cache_dir=None)
    build = time.perf_counter() - t0
    edges = sorted(
        (m, t)
        for m in graph.modules
        for t in graph.find_modules_directly_imported_by(m)
        if _internal(m, package) and _internal(t, package)
    )
    return {
        "build_s": build,
        "total_s": time.perf_counter() - t0,
        "modules": sorted(graph.modules),
        "edges": edges,
    }


def child_agentls(root: Path, package: str) -> dict[str, Any]:
    from agentls.analysis.index import WorkspaceIndex

    t0 = time.perf_counter()
    idx = WorkspaceIndex(root, cache_dir=False, jobs=0)
    idx.build()
    build = time.perf_counter() - t0
    t1 = time.perf_counter()
    graph = idx.import_graph()
    extract = time.perf_counter() - t1
    edges = sorted(
        (m, t)
        for m, targets in graph.items()
        for t in targets
        if _internal(m, package) and _internal(t, package)
    )
    return {
        "build_s": build,
        "graph_s": extract,
        "total_s": time.perf_counter() - t0,
        "modules": sorted(m for m in graph if _internal(m, package)),
        "edges": edges,
    }


def run_child(tool: str, root: Path, package: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", tool, str(root), package]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
        return {"error": f"exit {proc.returncode}: {tail}"}
    return json.loads(lines[-1])


def _examples(edges: set[Edge], limit: int = 20) -> list[str]:
    return [f"{a} -> {b}" for a, b in sorted(edges)[:limit]]


def compare(ref: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    theirs = {tuple(e) for e in ref["edges"]}
    mine = {tuple(e) for e in ours["edges"]}
    ref_modules = set(ref["modules"])
    missing, extra = theirs - mine, mine - theirs
    extra_to_unknown = {e for e in extra if e[1] not in ref_modules or e[0] not in ref_modules}
    return {
        "grimp_edges": len(theirs),
        "agentls_edges": len(mine),
        "common": len(theirs & mine),
        "missing": len(missing),
        "extra": len(extra),
        "grimp_self_edges": sum(1 for a, b in theirs if a == b),
        "agentls_self_edges": sum(1 for a, b in mine if a == b),
        "extra_touching_non_modules": len(extra_to_unknown),
        "modules_only_grimp": sorted(ref_modules - set(ours["modules"]))[:20],
        "modules_only_agentls": sorted(set(ours["modules"]) - ref_modules)[:20],
        "missing_examples": _examples(missing),
        "extra_examples": _examples(extra),
        "edge_recall": ratio(len(theirs & mine), len(theirs)),
        "edge_precision": ratio(len(theirs & mine), len(mine)),
    }


def bench(name: str) -> dict[str, Any]:
    root = python_project(name)
    package = PYTHON_PROJECTS[name][1]
    load = note_load(f"graph {name}")
    ref = run_child("grimp", root, package)
    ours = run_child("agentls", root, package)
    res: dict[str, Any] = {"package": package, "loadavg": load}
    res["grimp"] = {k: v for k, v in ref.items() if k not in ("edges", "modules")}
    res["agentls"] = {k: v for k, v in ours.items() if k not in ("edges", "modules")}
    if "error" not in ref and "error" not in ours:
        res["compare"] = compare(ref, ours)
        res["time_ratio_agentls_over_grimp"] = ratio(ours["total_s"], ref["total_s"])
    elif "error" not in ref:
        res["grimp"]["edges"] = len(ref["edges"])
        res["grimp"]["modules"] = len(ref["modules"])
    return res


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--projects", default="sympy,django,rich")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        tool, root, package = args.child
        fn = child_grimp if tool == "grimp" else child_agentls
        print(json.dumps(fn(Path(root), package)), flush=True)
        return
    results = {name: bench(name) for name in args.projects.split(",")}
    rows = []
    for name, r in results.items():
        c = r.get("compare", {})
        rows.append(
            [
                name,
                c.get("grimp_edges", r["grimp"].get("edges")),
                c.get("agentls_edges"),
                c.get("missing"),
                c.get("extra"),
                r["grimp"].get("total_s"),
                r["agentls"].get("build_s"),
                r["agentls"].get("graph_s"),
                r.get("time_ratio_agentls_over_grimp"),
                r["grimp"].get("error") or r["agentls"].get("error") or "",
            ]
        )
    print(
        table(
            [
                "project",
                "grimp edges",
                "agentls edges",
                "missing",
                "extra",
                "grimp s",
                "agentls build s",
                "graph s",
                "time ratio",
                "error",
            ],
            rows,
        )
    )
    for name, r in results.items():
        c = r.get("compare")
        if not c:
            continue
        print(
            f"\n== {name}: missing (in grimp, not agentls) {c['missing']}, extra {c['extra']} "
            f"(extra touching non-modules: {c['extra_touching_non_modules']})"
        )
        for line in c["missing_examples"]:
            print(f"  - {line}")
        for line in c["extra_examples"]:
            print(f"  + {line}")
    write_results("graph", {"projects": results})


if __name__ == "__main__":
    main()
