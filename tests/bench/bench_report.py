"""Shared reporting for the benchmark scripts: percentiles, plain-text tables, machine facts,
and the JSON result files under tests/bench/results/. Must not know: agentls.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench_data import REPO, RESULTS


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """p50 / p95 / max / mean in milliseconds of a list of durations in seconds."""
    ms = [s * 1000.0 for s in seconds]
    if not ms:
        return {"n": 0}
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "max_ms": round(max(ms), 3),
        "mean_ms": round(sum(ms) / len(ms), 3),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return round(a / b, 3)


def fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}"
    return str(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(out)


def machine() -> dict[str, Any]:
    """Facts that qualify every number: load, cores, versions, the commit measured."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except OSError:
        head = ""
    return {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "git_head": head or None,
    }


def write_results(name: str, payload: dict[str, Any]) -> Path:
    """Write results/<name>.json (machine facts included) and return the path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    body = {"machine": machine(), **payload}
    path.write_text(json.dumps(body, indent=2, sort_keys=False, default=str) + "\n")
    print(f"\nwrote {path.relative_to(REPO)}  (loadavg {body['machine']['loadavg']})")
    return path


def note_load(label: str) -> list[float]:
    load = [round(x, 2) for x in os.getloadavg()]
    print(f"[{label}] loadavg {load} on {os.cpu_count()} cpus", file=sys.stderr, flush=True)
    return load
