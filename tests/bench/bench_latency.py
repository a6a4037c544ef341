"""Query latency on rich (mid-size, ~27k lines): agentls vs jedi and pyright; first answer
after initialize; one-line edit re-index.

1. queries — 300 identifier occurrences drawn by random.Random(1234) (bench_positions);
   after `WorkspaceIndex(root, cache_dir=False, jobs=0).build()`, each position's
   `idx.definition` and `idx.references` is timed once. jedi (`Script(path, project).goto(
   follow_imports=True)` / `.get_references()`, Script creation included, as a server
   would do per request) and pyright-langserver (LSP round trip) answer a 60-position
   subsample, after one untimed warm-up query each.
2. first answer — spawn `.venv/bin/agentls serve` (stdio), initialize + initialized, open
   rich/console.py and ask textDocument/definition on a use of `Segment` every 10 ms until
   the reply is non-empty (15 s limit); 3 pairs of runs: cold (no .agentls/ cache in the
   project, fresh XDG_CACHE_HOME) then warm (cache left by the cold run). pyright-langserver
   is timed the same way once, as a peer. Worker processes a server leaves behind are
   killed (the server runs in its own process group) and counted.
3. edits — 200 single-line edits (random.Random(1234)): type one character after an
   identifier through `Workspace.change`, hand the ByteEdits to
   `idx.update_file(path, data, edits)` (timed), then undo it the same way (timed apart).

    .venv/bin/python tests/bench/bench_latency.py [--n 300] [--peer-n 60] [--edits 200]

Writes tests/bench/results/latency.json. Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, python_project
from bench_edits import bare_incremental, edit_reindex
from bench_positions import Position, sample
from bench_report import note_load, ratio, summary_ms, table, write_results
from bench_startup import first_answer, first_answer_summary

SEED = 1234


def agentls_queries(root: Path, positions: list[Position]) -> dict[str, Any]:
    from agentls.analysis.index import WorkspaceIndex

    t0 = time.perf_counter()
    idx = WorkspaceIndex(root, cache_dir=False, jobs=0)
    idx.build()
    build = time.perf_counter() - t0
    defs: list[float] = []
    refs: list[float] = []
    errors: list[str] = []
    empty = {"definition": 0, "references": 0}
    for pos in positions:
        try:
            t = time.perf_counter()
            d = idx.definition(pos.path, pos.line, pos.char)
            defs.append(time.perf_counter() - t)
            t = time.perf_counter()
            r = idx.references(pos.path, pos.line, pos.char, include_declaration=True)
            refs.append(time.perf_counter() - t)
            empty["definition"] += not d.locations
            empty["references"] += not r.locations
        except Exception as exc:
            errors.append(f"{pos.key()}: {type(exc).__name__}: {exc}")
    first = (
        {"definition_ms": round(defs[0] * 1000, 3), "references_ms": round(refs[0] * 1000, 3)}
        if defs and refs
        else {}
    )
    return {
        "build_s": round(build, 3),
        "definition": summary_ms(defs),
        "references": summary_ms(refs),
        "first_query": first,
        "empty_answers": empty,
        "errors": errors[:20],
        "error_count": len(errors),
    }


def peer_queries(
    tool: str, root: Path, positions: list[Position], warmup: Position
) -> dict[str, Any]:
    if tool == "jedi":
        from bench_oracle_py import jedi_answers

        answers = jedi_answers(root, [warmup, *positions], log_every=0)
    else:
        from bench_oracle_py import pyright_answers

        answers = pyright_answers(
            root, [warmup, *positions], DATA / "pyright-latency.stderr", log_every=0
        )
    timed = [answers[p.key()] for p in positions if p.key() != warmup.key()]
    return {
        "definition": summary_ms([a["def_s"] for a in timed if "def_s" in a]),
        "references": summary_ms([a["ref_s"] for a in timed if "ref_s" in a]),
        "errors": sum(1 for a in timed if any(k.endswith("error") for k in a)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--peer-n", type=int, default=60)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument(
        "--server-runs", type=int, default=3, help="cold+warm `agentls serve` start pairs"
    )
    ap.add_argument("--peers-only", action="store_true")
    args = ap.parse_args()
    root = python_project("rich")
    positions = sample(root, "python", args.n, SEED, uses_only=False)
    rng = random.Random(SEED)
    peer_positions = sorted(
        rng.sample(positions, min(args.peer_n, len(positions))),
        key=lambda p: (p.path, p.line, p.char),
    )
    warmup = next(p for p in positions if p not in peer_positions)
    res: dict[str, Any] = {
        "project": "rich",
        "root": str(root),
        "seed": SEED,
        "n": len(positions),
        "peer_n": len(peer_positions),
    }
    for tool in ("jedi", "pyright"):
        note_load(f"latency {tool}")
        res[tool] = peer_queries(tool, root, peer_positions, warmup)
    res["bare_tree_sitter_edits"] = bare_incremental(root, args.edits)
    from bench_data import npm_bin
    from bench_oracle_py import pyright_env

    res["pyright_first_answer"] = first_answer(
        root, True, [str(npm_bin("pyright-langserver")), "--stdio"], pyright_env()
    )
    if not args.peers_only:
        steps = (
            ("agentls", lambda: agentls_queries(root, positions)),
            (
                "first_answer",
                lambda: [
                    first_answer(root, cold=i % 2 == 0, timeout=15.0)
                    for i in range(args.server_runs * 2)
                ],
            ),
            ("edits", lambda: edit_reindex(root, args.edits)),
        )
        for key, step in steps:
            note_load(f"latency {key}")
            try:
                res[key] = step()
            except Exception as exc:
                res[key] = {"error": f"{type(exc).__name__}: {exc}"}
    rows = []
    for tool in ("agentls", "jedi", "pyright"):
        r = res.get(tool, {})
        for f in ("definition", "references"):
            s = r.get(f, {})
            rows.append(
                [
                    tool,
                    f,
                    s.get("n"),
                    s.get("p50_ms"),
                    s.get("p95_ms"),
                    s.get("max_ms"),
                    r.get("error", ""),
                ]
            )
    print(table(["tool", "query", "n", "p50 ms", "p95 ms", "max ms", "error"], rows))
    ours = res.get("agentls", {})
    res["ratios_p95"] = {
        f"{peer}_over_agentls_{f}": ratio(res[peer][f].get("p95_ms"), ours.get(f, {}).get("p95_ms"))
        for peer in ("jedi", "pyright")
        for f in ("definition", "references")
    }
    print("p95 ratios: " + ", ".join(f"{k}={v}" for k, v in res["ratios_p95"].items()))
    runs = res.get("first_answer")
    runs = runs if isinstance(runs, list) else ([runs] if runs else [])
    res["first_answer_summary"] = first_answer_summary(runs)
    for run in [res["pyright_first_answer"], *runs]:
        print(
            f"first answer {run.get('server', 'agentls')} ({'cold' if run.get('cold') else 'warm'}): initialize {run.get('initialize_s')} s, "
            f"after initialized {run.get('first_answer_after_initialized_s')} s, after spawn "
            f"{run.get('first_answer_after_spawn_s')} s {run.get('error', '')}"
        )
    print(f"bare tree-sitter on the same edits: {res['bare_tree_sitter_edits']}")
    if "edits" in res:
        print(f"edit re-index: { {k: v for k, v in res['edits'].items() if k != 'slowest_edits'} }")
    print(f"first answer summary: {res['first_answer_summary']}")
    res["targets"] = {
        "first_answer_after_initialized_s<=0.5": res["first_answer_summary"].get("worst_ok_s"),
        "first_answer_runs_without_answer(should be 0)": res["first_answer_summary"].get("failed"),
        "definition_p95_ms<=5": ours.get("definition", {}).get("p95_ms"),
        "references_p95_ms<=20": ours.get("references", {}).get("p95_ms"),
        "edit_p95_ms<=5": res.get("edits", {}).get("edit", {}).get("p95_ms")
        if isinstance(res.get("edits"), dict)
        else None,
    }
    write_results("latency", res)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
