"""Scoring answers against targets: sets of (path, line, UTF-16 start char) per position.

Targets: Python — where jedi and pyright agree (an empty agreement is kept apart);
TypeScript — the language service's answer. Recall / precision per position (macro) and
summed (micro), the same at line granularity, and the first misses / false hits for
the resolver's author. Must not know: agentls.
"""

from __future__ import annotations

from typing import Any

from bench_positions import Position
from bench_report import ratio

Loc = tuple[str, int, int]
FEATURES = ("definition", "references")


def _answer(entry: dict[str, Any], feature: str) -> set[Loc] | None:
    if "error" in entry or feature + "_error" in entry or feature not in entry:
        return None
    return {tuple(x) for x in entry[feature]}  # type: ignore[misc]


def python_targets(
    oracles: dict[str, Any], positions: list[Position]
) -> dict[str, dict[str, set[Loc] | None]]:
    """feature -> key -> agreed set (possibly empty), or None where they disagree / failed."""
    out: dict[str, dict[str, set[Loc] | None]] = {f: {} for f in FEATURES}
    for pos in positions:
        j, p = oracles["jedi"].get(pos.key(), {}), oracles["pyright"].get(pos.key(), {})
        for f in FEATURES:
            a, b = _answer(j, f), _answer(p, f)
            out[f][pos.key()] = a if a is not None and a == b else None
    return out


def ts_targets(
    oracles: dict[str, Any], positions: list[Position]
) -> dict[str, dict[str, set[Loc] | None]]:
    return {
        f: {pos.key(): _answer(oracles["tsls"].get(pos.key(), {}), f) for pos in positions}
        for f in FEATURES
    }


def _fmt(locs: set[Loc] | list[Loc], limit: int = 4) -> str:
    items = sorted(locs)
    text = ", ".join(f"{p}:{ln + 1}:{c + 1}" for p, ln, c in items[:limit])
    return f"[{text}{', ...+' + str(len(items) - limit) if len(items) > limit else ''}]"


def score(
    positions: list[Position],
    targets: dict[str, set[Loc] | None],
    ours: dict[str, Any],
    feature: str,
    limit: int | None = 20,
) -> dict[str, Any]:
    """Scores of one feature; `limit` misses and false hits are listed (None: all)."""
    hits = tsize = osize = line_hits = line_osize = line_tsize = 0
    recalls: list[float] = []
    precisions: list[float] = []
    answered = empty_agree = spurious = disagree = 0
    misses: list[dict[str, Any]] = []
    false_hits: list[dict[str, Any]] = []
    hows: dict[str, int] = {}
    spurious_examples: list[str] = []
    by_kind: dict[str, list[float]] = {}
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
            if mine and len(spurious_examples) < 20:
                where = f"{pos.path}:{pos.line + 1}:{pos.char + 1}"
                spurious_examples.append(f"{where} {pos.name} ({pos.kind}) ours {_fmt(mine)}")
            continue
        hows[entry.get(feature + "_how", "error")] = (
            hows.get(entry.get(feature + "_how", "error"), 0) + 1
        )
        hit = len(mine & target)
        hits, tsize, osize = hits + hit, tsize + len(target), osize + len(mine)
        recalls.append(hit / len(target))
        by_kind.setdefault(pos.kind, []).append(hit / len(target))
        if mine:
            answered += 1
            precisions.append(hit / len(mine))
        t_lines, m_lines = {(p, ln) for p, ln, _ in target}, {(p, ln) for p, ln, _ in mine}
        line_hits += len(t_lines & m_lines)
        line_tsize += len(t_lines)
        line_osize += len(m_lines)
        where = f"{pos.path}:{pos.line + 1}:{pos.char + 1}"
        row = {
            "at": where,
            "name": pos.name,
            "kind": pos.kind,
            "how": entry.get(feature + "_how"),
            "ours": _fmt(mine),
            "target": _fmt(target),
            "error": entry.get(feature + "_error"),
        }
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
        "spurious_examples": spurious_examples,
        "recall_by_kind": {
            k: {"targets": len(v), "recall_macro": round(sum(v) / len(v), 4)}
            for k, v in sorted(by_kind.items())
        },
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
        "misses": misses[:limit],
        "false_hits": false_hits[:limit],
        "hits_micro": hits,
        "target_size_micro": tsize,
        "answer_size_micro": osize,
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
        out[f] = {
            "agree": agree,
            "agree_nonempty": nonempty,
            "errors": errors,
            "positions": len(positions),
        }
    return out
