"""Executor overhead per tool call: total call time minus the tool's own `execute` time.

Runs `read_file` on a small file ~2000 times through `ToolExecutor` (validation,
permission check, worker thread with deadline, output validation, logging) and prints
the median and p95 overhead, without and with the audit log. Target: ≤ 1 ms median.
Run on demand: `.venv/bin/python tests/bench/bench_executor.py [--calls N] [--json]`.
Must not know: anything beyond the public tool-system API.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from agentls.tools.audit import AuditLog
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.filesystem import ReadFile
from agentls.tools.permissions import PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.tools.registry import ToolRegistry
from agentls.workspace import Workspace


class TimedReadFile(ReadFile):
    """read_file that records how long its own execute took."""

    last_ms: float = 0.0

    def execute(self, input: Any, ctx: ToolContext) -> Any:
        start = time.perf_counter()
        try:
            return super().execute(input, ctx)
        finally:
            TimedReadFile.last_ms = (time.perf_counter() - start) * 1000.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(calls: int, audit: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "small.py").write_text("".join(f"line_{i} = {i}\n" for i in range(40)))
        workspace = Workspace(root)
        ctx = ToolContext(
            workspace=workspace,
            permissions=PermissionSet.for_mode("dev"),
            proposals=ProposalStore(workspace),
            run_id="bench",
        )
        executor = ToolExecutor(
            ToolRegistry([TimedReadFile]), AuditLog.for_workspace(root) if audit else None
        )
        raw = {"path": "small.py", "start_line": 5, "end_line": 30}
        for _ in range(100):  # warm up
            executor.execute("read_file", raw, ctx)
        totals: list[float] = []
        overheads: list[float] = []
        for _ in range(calls):
            start = time.perf_counter()
            result = executor.execute("read_file", raw, ctx)
            total = (time.perf_counter() - start) * 1000.0
            assert result.ok, result.error
            totals.append(total)
            overheads.append(total - TimedReadFile.last_ms)
    return {
        "calls": calls,
        "total_median_ms": statistics.median(totals),
        "total_p95_ms": percentile(totals, 0.95),
        "overhead_median_ms": statistics.median(overheads),
        "overhead_p95_ms": percentile(overheads, 0.95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {
        "no_audit": measure(args.calls, audit=False),
        "audit": measure(args.calls, audit=True),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, r in results.items():
        print(
            f"{name:>9}: {r['calls']} calls  overhead median {r['overhead_median_ms']:.3f} ms  "
            f"p95 {r['overhead_p95_ms']:.3f} ms  (total median {r['total_median_ms']:.3f} ms, "
            f"p95 {r['total_p95_ms']:.3f} ms)"
        )
    ok = results["no_audit"]["overhead_median_ms"] <= 1.0
    print(f"target: overhead median <= 1 ms without audit: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
