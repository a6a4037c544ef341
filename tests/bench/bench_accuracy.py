"""Accuracy of agentls definition / references against jedi + pyright (Python: rich, flask
with its tests, click with its tests) and against the TypeScript language service
(TypeScript, on rxjs's src/).

Positions: a seeded sample of identifier *uses* (bench_positions; Python seed 4321,
TypeScript seed 4321, 200 each, per project). Oracle answers are cached in
tests/bench/.data/oracle_{py,ts}_<project>.json (keyed by the sample, so reruns only ask
agentls); every miss and false hit of a run goes to .data/accuracy_misses_<project>.json.
Targets: Python — positions where jedi and pyright give the same non-empty set of
(path, line, UTF-16 start char) inside the project; TypeScript — the language service's
non-empty answer. Per feature: recall = |ours ∩ target| / |target| and precision =
|ours ∩ target| / |ours| (macro: averaged over target positions, precision over those
where we answered; micro: summed), plus the same at line granularity, and how often we
answer where the oracles agree there is nothing in the project.

    .venv/bin/python tests/bench/bench_accuracy.py [--n 200] [--projects rich,flask,click]
        [--languages python,typescript] [--refresh-oracles]

Writes tests/bench/results/accuracy.json. Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, python_project, python_source_roots, ts_project
from bench_positions import Position, sample
from bench_report import note_load, summary_ms, table, write_results
from bench_scoring import FEATURES, oracle_agreement, python_targets, score, ts_targets


# --- oracles (cached) -------------------------------------------------------------------
def _cached(
    path: Path, positions: list[Position], seed: int, refresh: bool
) -> dict[str, Any] | None:
    if refresh or not path.exists():
        return None
    data = json.loads(path.read_text())
    if data.get("seed") != seed or data.get("positions") != [p.to_dict() for p in positions]:
        return None
    return data


def python_oracles(
    name: str, root: Path, positions: list[Position], seed: int, refresh: bool
) -> dict[str, Any]:
    path = DATA / f"oracle_py_{name}.json"
    data = _cached(path, positions, seed, refresh)
    if data is None:
        from bench_oracle_py import jedi_answers, pyright_answers, versions

        note_load(f"oracle jedi ({name})")
        jedi = jedi_answers(root, positions, source_roots=python_source_roots(name))
        note_load(f"oracle pyright ({name})")
        pyright = pyright_answers(root, positions, DATA / "pyright-langserver.stderr")
        data = {
            "seed": seed,
            "positions": [p.to_dict() for p in positions],
            "versions": versions(),
            "jedi": jedi,
            "pyright": pyright,
        }
        path.write_text(json.dumps(data))
    return data


def ts_oracles(root: Path, positions: list[Position], seed: int, refresh: bool) -> dict[str, Any]:
    path = DATA / "oracle_ts_rxjs.json"
    data = _cached(path, positions, seed, refresh)
    if data is None:
        from bench_oracle_ts import tsls_answers

        note_load("oracle typescript")
        got = tsls_answers(root, positions)
        data = {
            "seed": seed,
            "positions": [p.to_dict() for p in positions],
            "versions": {"typescript": got["version"]},
            "program_files": got["files"],
            "tsls": got["answers"],
        }
        path.write_text(json.dumps(data))
    return data


# --- agentls ----------------------------------------------------------------------------
def agentls_answers(root: Path, positions: list[Position]) -> dict[str, Any]:
    from agentls.analysis.index import WorkspaceIndex

    t0 = time.perf_counter()
    idx = WorkspaceIndex(root, cache_dir=False, jobs=0)
    idx.build()
    build_s = time.perf_counter() - t0
    out: dict[str, Any] = {}
    for pos in positions:
        entry: dict[str, Any] = {}
        for feature in FEATURES:
            try:
                t = time.perf_counter()
                if feature == "definition":
                    res = idx.definition(pos.path, pos.line, pos.char)
                else:
                    res = idx.references(pos.path, pos.line, pos.char, include_declaration=True)
                entry[feature + "_s"] = time.perf_counter() - t
                entry[feature] = sorted(
                    {(loc.path, loc.start[0], loc.start[1]) for loc in res.locations}
                )
                entry[feature + "_how"] = res.how
            except Exception as exc:  # a crash is an answer we report, not a reason to stop
                entry[feature] = []
                entry[feature + "_error"] = f"{type(exc).__name__}: {exc}"
        out[pos.key()] = entry
    return {"build_s": build_s, "answers": out}


# --- scoring ----------------------------------------------------------------------------
def _latency(ours: dict[str, Any]) -> dict[str, Any]:
    answers = ours["answers"].values()
    return {f: summary_ms([e[f + "_s"] for e in answers if f + "_s" in e]) for f in FEATURES}


def run_language(
    language: str, project: str, n: int, seed: int, refresh: bool, with_agentls: bool
) -> dict[str, Any]:
    root = python_project(project) if language == "python" else ts_project()
    positions = sample(root, language, n, seed, uses_only=True)
    if language == "python":
        oracles = python_oracles(project, root, positions, seed, refresh)
        targets = python_targets(oracles, positions)
        res: dict[str, Any] = {
            "project": project,
            "oracle": oracles["versions"],
            "oracle_agreement": oracle_agreement(oracles, positions),
        }
    else:
        oracles = ts_oracles(root, positions, seed, refresh)
        targets = ts_targets(oracles, positions)
        res = {"project": "rxjs/src", "oracle": oracles["versions"]}
    res.update({"root": str(root), "seed": seed, "n": len(positions)})
    res["target_counts"] = {f: sum(1 for t in targets[f].values() if t) for f in FEATURES}
    if not with_agentls:
        return res
    try:
        ours = agentls_answers(root, positions)
    except Exception as exc:
        res["error"] = f"{type(exc).__name__}: {exc}"
        return res
    res["agentls_build_s"] = round(ours["build_s"], 3)
    res["agentls_latency"] = _latency(ours)
    every: dict[str, Any] = {}
    for f in FEATURES:
        res[f] = score(positions, targets[f], ours["answers"], f)
        full = score(positions, targets[f], ours["answers"], f, limit=None)
        every[f] = {"misses": full["misses"], "false_hits": full["false_hits"]}
    name = project if language == "python" else "rxjs"
    (DATA / f"accuracy_misses_{name}.json").write_text(json.dumps(every, indent=1))
    return res


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Every location of the Python projects counted together (micro over projects)."""
    out: dict[str, Any] = {}
    for f in FEATURES:
        got = [r[f] for r in runs if f in r]
        hits = sum(s["hits_micro"] for s in got)
        tsize = sum(s["target_size_micro"] for s in got)
        osize = sum(s["answer_size_micro"] for s in got)
        out[f] = {
            "projects": [r["project"] for r in runs if f in r],
            "targets": sum(s["targets"] for s in got),
            "recall_micro": round(hits / tsize, 4) if tsize else None,
            "precision_micro": round(hits / osize, 4) if osize else None,
        }
    return out


def print_language(name: str, res: dict[str, Any], goals: tuple[float, float]) -> None:
    print(
        f"\n== {name}: {res['project']} ({res['n']} positions, seed {res['seed']}, oracle {res['oracle']})"
    )
    if "oracle_agreement" in res:
        for f, a in res["oracle_agreement"].items():
            print(
                f"  jedi/pyright {f}: agree {a['agree']} (non-empty {a['agree_nonempty']}), errors {a['errors']}"
            )
    if "error" in res:
        print(f"  agentls: {res['error']}")
    if "definition" not in res:
        print(f"  targets: {res['target_counts']}")
        return
    rows = []
    for f in FEATURES:
        s = res[f]
        rows.append(
            [
                f,
                s["targets"],
                s["answered"],
                s["recall_macro"],
                s["precision_macro"],
                s["recall_micro"],
                s["precision_micro"],
                s["line_recall_micro"],
                s["spurious_on_agreed_empty"],
                s["misses_total"],
                s["false_hits_total"],
                f"{goals[0]}/{goals[1]}",
            ]
        )
    print(
        table(
            [
                "feature",
                "targets",
                "answered",
                "recall",
                "precision",
                "recall µ",
                "precision µ",
                "line recall µ",
                "spurious",
                "misses",
                "false hits",
                "goal R/P",
            ],
            rows,
        )
    )
    for f in FEATURES:
        s = res[f]
        print(f"\n  {f} — first misses (of {s['misses_total']}), how={s['how']}:")
        for m in s["misses"]:
            print(
                f"    {m['at']} {m['name']} ({m['kind']}, {m['how']}) ours {m['ours']} target {m['target']}"
                + (f" ERROR {m['error']}" if m["error"] else "")
            )
        print(f"  {f} — recall by kind: {s['recall_by_kind']}")
        print(
            f"  {f} — answers where the oracles agree there is none in the project ({s['spurious_on_agreed_empty']}):"
        )
        for line in s["spurious_examples"][:10]:
            print(f"    {line}")
        print(f"  {f} — first false hits (of {s['false_hits_total']}):")
        for m in s["false_hits"]:
            print(
                f"    {m['at']} {m['name']} ({m['kind']}, {m['how']}) extra {m['extra']} target {m['target']}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4321)
    ap.add_argument("--languages", default="python,typescript")
    ap.add_argument("--projects", default="rich,flask,click", help="Python projects")
    ap.add_argument("--refresh-oracles", action="store_true")
    ap.add_argument("--oracles-only", action="store_true")
    args = ap.parse_args()
    goals = {"python": (0.97, 0.98), "typescript": (0.90, 0.95)}
    results: dict[str, Any] = {}
    for lang in args.languages.split(","):
        projects = args.projects.split(",") if lang == "python" else ["rxjs"]
        for project in projects:
            key = f"{lang}/{project}"
            results[key] = run_language(
                lang, project, args.n, args.seed, args.refresh_oracles, not args.oracles_only
            )
            print_language(lang, results[key], goals[lang])
    python_runs = [r for k, r in results.items() if k.startswith("python/")]
    if len(python_runs) > 1 and not args.oracles_only:
        results["python/pooled"] = pooled(python_runs)
        print("\n== python, every project's locations together:")
        for f, p in results["python/pooled"].items():
            print(
                f"  {f}: recall µ {p['recall_micro']} precision µ {p['precision_micro']} ({p['targets']} targets)"
            )
    write_results("accuracy", {"goals": goals, "languages": results})


if __name__ == "__main__":
    main()
