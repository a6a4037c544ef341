"""The agent benchmark's measures: what a run reports about itself, totals per set (and
per split), and the printed tables.

A run's `--json` result may carry `verification: {verified: true|false|null, checks}` and
`usage: {promptTokens, completionTokens, modelSeconds, contextWindow, contextUsed}` (DESIGN
§9); without them the verification counts as unknown (null) and the tokens come from the
recorded turns. Result files written before these fields existed still read: every field
added since is read with a default, and `totals()` of their rows fills in the new measures.
Must not know: agentls internals, how a run is started, the model.
"""

from __future__ import annotations

import math
import statistics
from typing import Any


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def p90(values: list[float]) -> float | None:
    """The 90th percentile by nearest rank (the smallest value ≥ 90 % of the values)."""
    if not values:
        return None
    ranked = sorted(values)
    return round(ranked[math.ceil(0.9 * len(ranked)) - 1], 2)


def reported(result: dict[str, Any], turns: list[dict[str, Any]]) -> dict[str, Any]:
    """A run's own report (verification, usage) and the tokens and model seconds to count:
    tokens from `usage` when the run gave it, else from its recorded turns; model seconds are
    the runner's (the sum of the turns' seconds), `usage_model_seconds` the run's own."""
    verification = result.get("verification")
    verification = verification if isinstance(verification, dict) else None
    usage = result.get("usage")
    usage = usage if isinstance(usage, dict) else None
    from_usage = usage is not None and "promptTokens" in usage
    return {
        "verification": verification,
        "agent_verified": verification.get("verified") if verification else None,
        "usage": usage,
        "tokens_from": "usage" if from_usage else "turns",
        "prompt_tokens": int(usage["promptTokens"])
        if from_usage and usage
        else sum(t["prompt_tokens"] for t in turns),
        "completion_tokens": int(usage.get("completionTokens", 0))
        if from_usage and usage
        else sum(t["completion_tokens"] for t in turns),
        "model_seconds": round(sum(t["seconds"] for t in turns), 2),
        "usage_model_seconds": usage.get("modelSeconds") if usage else None,
    }


def _model_seconds(row: dict[str, Any]) -> float:
    value = row.get("model_seconds")
    return float(value) if value is not None else sum(t["seconds"] for t in row["turns"])


def _completed_unverified(row: dict[str, Any]) -> bool:
    """`completed` while the run's own verification says null (or is missing: unknown)."""
    return row["status"] == "completed" and row.get("agent_verified") is None


def outcome(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The headline measures of issue 24 over `rows` (a set, or one split of it)."""
    n = len(rows)
    seconds = [r["seconds"] for r in rows]
    model = [_model_seconds(r) for r in rows]
    usage_s = [r["usage_model_seconds"] for r in rows if r.get("usage_model_seconds") is not None]
    return {
        "runs": n,
        "verified": sum(r["verified"] for r in rows),
        "verified_rate": round(sum(r["verified"] for r in rows) / n, 3) if n else None,
        "false_completions": sum(r["false_completion"] for r in rows),
        "completed_unverified": sum(_completed_unverified(r) for r in rows),
        "completed_verification_missing": sum(
            r["status"] == "completed" and r.get("verification") is None for r in rows
        ),
        "median_seconds": _median(seconds),
        "p90_seconds": p90(seconds),
        "model_seconds": round(sum(model), 1),
        "median_model_seconds": _median(model),
        "usage_model_seconds": round(sum(usage_s), 1) if usage_s else None,
        "prompt_tokens": sum(int(r.get("prompt_tokens") or 0) for r in rows),
        "completion_tokens": sum(int(r.get("completion_tokens") or 0) for r in rows),
        "tokens_from_usage": sum(r.get("tokens_from") == "usage" for r in rows),
    }


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every measure over every run (issue 7's, then issue 24's), by category and split."""
    n = len(rows)
    turns = [t for r in rows for t in r["turns"]]
    later = [t for r in rows for t in r["turns"][1:]]  # the first turn carries the model load
    gen_s = sum(t["seconds"] for t in later)
    gen_tokens = sum(t["completion_tokens"] for t in later)
    by_cat: dict[str, list[bool]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(r["verified"])
    splits = sorted({r.get("split") or "" for r in rows} - {""})
    first_steps = [r["first_step_s"] for r in rows if r["first_step_s"] is not None]
    return {
        **outcome(rows),
        "false_completion_rate": round(sum(r["false_completion"] for r in rows) / n, 3)
        if n
        else None,
        "unparseable_runs": sum(bool(r["unparseable"]) for r in rows),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "median_steps": _median([r["steps"] for r in rows if r["steps"] is not None]),
        "median_first_step_s": _median(first_steps),
        "max_first_step_s": max(first_steps, default=None),
        "turns": len(turns),
        "median_turn_s": _median([t["seconds"] for t in later]),
        "completion_tokens_per_s": round(gen_tokens / gen_s, 1) if gen_s else None,
        "by_category": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_cat.items())},
        "by_split": {s: outcome([r for r in rows if r.get("split") == s]) for s in splits},
        "statuses": {
            s: sum(r["status"] == s for r in rows) for s in sorted({r["status"] for r in rows})
        },
    }


def _flag(value: Any) -> str:
    return {True: "yes", False: "no", None: "null"}.get(value, "-")


def print_table(rows: list[dict[str, Any]], total: dict[str, Any]) -> None:
    """One line per run, then every total."""
    head = (
        f"{'task':34} {'category':10} {'status':16} {'ok':3} {'own':4} {'sec':>6} {'model':>6} "
        f"{'1st':>5} {'steps':>5} {'tokens':>7}  failed checks"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        bad = ", ".join(f"{c['check']}: {c['detail']}"[:70] for c in r["checks"] if not c["ok"])
        if r["status"] != r["expect_status"]:
            bad = f"status≠{r['expect_status']}" + (f"; {bad}" if bad else "")
        first = f"{r['first_step_s']:.0f}" if r["first_step_s"] is not None else "-"
        own = "-" if r.get("verification") is None else _flag(r.get("agent_verified"))
        tokens = int(r.get("prompt_tokens") or 0) + int(r.get("completion_tokens") or 0)
        steps = r["steps"] if r["steps"] is not None else "-"
        print(
            f"{r['task']:34} {r['category']:10} {r['status']:16} "
            f"{'yes' if r['verified'] else 'NO':3} {own:4} {r['seconds']:6.1f} "
            f"{_model_seconds(r):6.1f} {first:>5} {steps:>5} {tokens:>7}  {bad[:120]}"
        )
    print()
    for key, value in total.items():
        print(f"{key:32} {value}")


def print_sets(named: list[tuple[str, dict[str, Any]]]) -> None:
    """One line per set (and split): the headline measures side by side."""
    head = (
        f"{'set':20} {'runs':>4} {'verified':>11} {'false':>5} {'unverif.':>8} "
        f"{'median s':>8} {'p90 s':>7} {'model s':>8} {'prompt tok':>10} {'compl. tok':>10}"
    )
    print(head)
    print("-" * len(head))
    for name, t in named:
        rate = f"{t['verified']}/{t['runs']}"
        print(
            f"{name:20} {t['runs']:>4} {rate:>11} {t['false_completions']:>5} "
            f"{t['completed_unverified']:>8} {t['median_seconds'] or '-':>8} "
            f"{t['p90_seconds'] or '-':>7} {t['model_seconds']:>8} {t['prompt_tokens']:>10} "
            f"{t['completion_tokens']:>10}"
        )
    print(
        "(false: completed while the verifier fails; unverif.: completed with the run's own "
        "verification null or missing)"
    )


def set_lines(name: str, total: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The set's line and one per split."""
    return [(name, total)] + [(f"{name}/{s}", t) for s, t in total.get("by_split", {}).items()]
