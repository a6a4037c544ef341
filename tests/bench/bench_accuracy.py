"""Accuracy of agentls definition / references against jedi + pyright (Python, on rich)
and against the TypeScript language service (TypeScript, on rxjs's src/).

Positions: a seeded sample of identifier *uses* (bench_positions; Python seed 4321,
TypeScript seed 4321, 200 each). Oracle answers are cached in tests/bench/.data/
oracle_{py,ts}_*.json (keyed by the sample, so reruns only ask agentls).
Targets: Python — positions where jedi and pyright give the same non-empty set of
(path, line, UTF-16 start char) inside the project; TypeScript — the language service's
non-empty answer. Per feature: recall = |ours ∩ target| / |target| and precision =
|ours ∩ target| / |ours| (macro: averaged over target positions, precision over those
where we answered; micro: summed), plus the same at line granularity, and how often we
answer where the oracles agree there is nothing in the project.

    .venv/bin/python tests/bench/bench_accuracy.py [--n 200] [--refresh-oracles]

Writes tests/bench/results/accuracy.json. Must not know: agentls internals (public API only).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, python_project, ts_project
from bench_positions import Position, sample
from bench_report import note_load, ratio, summary_ms, table, write_results

Loc = tuple[str, int, int]
FEATURES = ("definition", "references")


# --- oracles (cached) -------------------------------------------------------------------
def _cached(path: Path, positions: list[Position], seed: int, refresh: bool) -> dict[str, Any] | None:
    if refresh or not path.exists():
        return None
    data = json.loads(path.read_text())
    if data.get("seed") != seed or data.get("positions") != [p.to_dict() for p in positions]:
        return None
    return data


def python_oracles(root: Path, positions: list[Position], seed: int, refresh: bool) -> dict[str, Any]:
    path = DATA / "oracle_py_rich.json"
    data = _cached(path, positions, seed, refresh)
    if data is None:
        from bench_oracle_py import jedi_answers, pyright_answers, versions

        note_load("oracle jedi")
        jedi = jedi_answers(root, positions)
        note_load("oracle pyright")
        pyright = pyright_answers(root, positions, DATA / "pyright-langserver.stderr")
        data = {"seed": seed, "positions": [p.to_dict() for p in positions], "versions": versions(), "jedi": jedi, "pyright": pyright}
        path.write_text(json.dumps(data))
    return data


def ts_oracles(root: Path, positions: list[Position], seed: int, refresh: bool) -> dict[str, Any]:
    path = DATA / "oracle_ts_rxjs.json"
    data = _cached(path, positions, seed, refresh)
    if data is None:
        from bench_oracle_ts import tsls_answers

        note_load("oracle typescript")
        got = tsls_answers(root, positions)
        data = {"seed": seed, "positions": [p.to_dict() for p in positions], "versions": {"typescript": got["version"]}, "program_files": got["files"], "tsls": got["answers"]}
        path.write_text(json.dumps(data))
    return data


def _answer(entry: dict[str, Any], feature: str) -> set[Loc] | None:
    if "error" in entry or feature + "_error" in entry or feature not in entry:
        return None
    return {tuple(x) for x in entry[feature]}  # type: ignore[misc]


def python_targets(oracles: dict[str, Any], positions: list[Position]) -> dict[str, dict[str, set[Loc] | None]]:
    """feature -> key -> agreed set (possibly empty), or None where they disagree / failed."""
    out: dict[str, dict[str, set[Loc] | None]] = {f: {} for f in FEATURES}
    for pos in positions:
        j, p = oracles["jedi"].get(pos.key(), {}), oracles["pyright"].get(pos.key(), {})
        for f in FEATURES:
            a, b = _answer(j, f), _answer(p, f)
            out[f][pos.key()] = a if a is not None and a == b else None
    return out


def ts_targets(oracles: dict[str, Any], positions: list[Position]) -> dict[str, dict[str, set[Loc] | None]]:
    return {f: {pos.key(): _answer(oracles["tsls"].get(pos.key(), {}), f) for pos in positions} for f in FEATURES}


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
                entry[feature] = sorted({(loc.path, loc.start[0], loc.start[1]) for loc in res.locations})
                entry[feature + "_how"] = res.how
            except Exception as exc:  # a crash is an answer we report, not a reason to stop
                entry[feature] = []
                entry[feature + "_error"] = f"{type(exc).__name__}: {exc}"
        out[pos.key()] = entry
    return {"build_s": build_s, "answers": out}


# --- scoring ----------------------------------------------------------------------------
def _fmt(locs: set[Loc] | list[Loc], limit: int = 4) -> str:
    items = sorted(locs)
    text = ", ".join(f"{p}:{ln + 1}:{c + 1}" for p, ln, c in items[:limit])
    return f"[{text}{', ...+' + str(len(items) - limit) if len(items) > limit else ''}]"


def score(positions: list[Position], targets: dict[str, set[Loc] | None], ours: dict[str, Any], feature: str) -> dict[str, Any]:
    hits = tsize = osize = line_hits = line_osize = line_tsize = 0
    recalls: list[float] = []
    precisions: list[float] = []
    answered = empty_agree = spurious = disagree = 0
    misses: list[dict[str, Any]] = []
    false_hits: list[dict[str, Any]] = []
    hows: dict[str, int] = {}
    for pos in positions:
        target = targets.get(pos.key())
        if target is None:
            disagree += 1
            continue
        entry = ours.get(pos.key(), {})
        mine = {tuple(x) for x in entry.get(feature, [])}
        if not target:
            empty_agree += 1
            spurious += bool(mine)
            continue
        hows[entry.get(feature + "_how", "error")] = hows.get(entry.get(feature + "_how", "error"), 0) + 1
        hit = len(mine & target)
        hits, tsize, osize = hits + hit, tsize + len(target), osize + len(mine)
        recalls.append(hit / len(target))
        if mine:
            answered += 1
            precisions.append(hit / len(mine))
        t_lines, m_lines = {(p, ln) for p, ln, _ in target}, {(p, ln) for p, ln, _ in mine}
        line_hits += len(t_lines & m_lines)
        line_tsize += len(t_lines)
        line_osize += len(m_lines)
        where = f"{pos.path}:{pos.line + 1}:{pos.char + 1}"
        row = {"at": where, "name": pos.name, "kind": pos.kind, "how": entry.get(feature + "_how"),
               "ours": _fmt(mine), "target": _fmt(target), "error": entry.get(feature + "_error")}
        if hit < len(target):
            misses.append({**row, "missing": _fmt(target - mine)})
        if mine - target:
            false_hits.append({**row, "extra": _fmt(mine - target)})
    n = len(recalls)
    return {
        "positions": len(positions),
        "targets": n,
        "oracles_disagree_or_failed": disagree,
        "agreed_empty": empty_agree,
        "spurious_on_agreed_empty": spurious,
        "answered": answered,
        "recall_macro": round(sum(recalls) / n, 4) if n else None,
        "precision_macro": round(sum(precisions) / len(precisions), 4) if precisions else None,
        "recall_micro": ratio(hits, tsize),
        "precision_micro": ratio(hits, osize),
        "line_recall_micro": ratio(line_hits, line_tsize),
        "line_precision_micro": ratio(line_hits, line_osize),
        "how": hows,
        "misses_total": len(misses),
        "false_hits_total": len(false_hits),
        "misses": misses[:20],
        "false_hits": false_hits[:20],
    }


def oracle_agreement(oracles: dict[str, Any], positions: list[Position]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in FEATURES:
        agree = nonempty = errors = 0
        for pos in positions:
            a = _answer(oracles["jedi"].get(pos.key(), {}), f)
            b = _answer(oracles["pyright"].get(pos.key(), {}), f)
            if a is None or b is None:
                errors += 1
            elif a == b:
                agree += 1
                nonempty += bool(a)
        out[f] = {"agree": agree, "agree_nonempty": nonempty, "errors": errors, "positions": len(positions)}
    return out


def _latency(ours: dict[str, Any]) -> dict[str, Any]:
    answers = ours["answers"].values()
    return {f: summary_ms([e[f + "_s"] for e in answers if f + "_s" in e]) for f in FEATURES}


def run_language(language: str, n: int, seed: int, refresh: bool, with_agentls: bool) -> dict[str, Any]:
    root = python_project("rich") if language == "python" else ts_project()
    positions = sample(root, language, n, seed, uses_only=True)
    if language == "python":
        oracles = python_oracles(root, positions, seed, refresh)
        targets = python_targets(oracles, positions)
        res: dict[str, Any] = {"project": "rich", "oracle": oracles["versions"], "oracle_agreement": oracle_agreement(oracles, positions)}
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
    for f in FEATURES:
        res[f] = score(positions, targets[f], ours["answers"], f)
    return res


def print_language(name: str, res: dict[str, Any], goals: tuple[float, float]) -> None:
    print(f"\n== {name}: {res['project']} ({res['n']} positions, seed {res['seed']}, oracle {res['oracle']})")
    if "oracle_agreement" in res:
        for f, a in res["oracle_agreement"].items():
            print(f"  jedi/pyright {f}: agree {a['agree']} (non-empty {a['agree_nonempty']}), errors {a['errors']}")
    if "error" in res:
        print(f"  agentls: {res['error']}")
    if "definition" not in res:
        print(f"  targets: {res['target_counts']}")
        return
    rows = []
    for f in FEATURES:
        s = res[f]
        rows.append([f, s["targets"], s["answered"], s["recall_macro"], s["precision_macro"], s["recall_micro"], s["precision_micro"],
                     s["line_recall_micro"], s["spurious_on_agreed_empty"], s["misses_total"], s["false_hits_total"], f"{goals[0]}/{goals[1]}"])
    print(table(["feature", "targets", "answered", "recall", "precision", "recall µ", "precision µ", "line recall µ", "spurious", "misses", "false hits", "goal R/P"], rows))
    for f in FEATURES:
        s = res[f]
        print(f"\n  {f} — first misses (of {s['misses_total']}), how={s['how']}:")
        for m in s["misses"]:
            print(f"    {m['at']} {m['name']} ({m['kind']}, {m['how']}) ours {m['ours']} target {m['target']}" + (f" ERROR {m['error']}" if m["error"] else ""))
        print(f"  {f} — first false hits (of {s['false_hits_total']}):")
        for m in s["false_hits"]:
            print(f"    {m['at']} {m['name']} ({m['kind']}, {m['how']}) extra {m['extra']} target {m['target']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4321)
    ap.add_argument("--languages", default="python,typescript")
    ap.add_argument("--refresh-oracles", action="store_true")
    ap.add_argument("--oracles-only", action="store_true")
    args = ap.parse_args()
    goals = {"python": (0.95, 0.97), "typescript": (0.90, 0.95)}
    results: dict[str, Any] = {}
    for lang in args.languages.split(","):
        results[lang] = run_language(lang, args.n, args.seed, args.refresh_oracles, not args.oracles_only)
        print_language(lang, results[lang], goals[lang])
    write_results("accuracy", {"goals": goals, "languages": results})


if __name__ == "__main__":
    main()
