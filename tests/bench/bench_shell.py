"""What confinement and shell edits as proposals cost per command: `run_command`'s
`true` through the sandbox, per backend, in place (approval auto) and in a scratch copy
(approval ask/never: the copy, the command, the comparison of the copy with the
workspace), on a small workspace and on a larger one (this repository's `server/` and
`tests/` folders copied, about 600 files).

Run on demand: `.venv/bin/python tests/bench/bench_shell.py [--runs N]`; writes
`results/shell_sandbox.json`. Must not know: anything beyond the sandbox's public API.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench_report import REPO, note_load, summary_ms, table, write_results

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.sandbox import SandboxConfig, backend_status, run_process
from agentls.workspace import Workspace


def workspaces(tmp: Path) -> dict[str, Path]:
    small = tmp / "small"
    small.mkdir()
    for i in range(10):
        (small / f"m{i}.py").write_text(f"x = {i}\n")
    large = tmp / "large"
    for name in ("server", "tests"):
        shutil.copytree(
            REPO / name,
            large / name,
            ignore=shutil.ignore_patterns("__pycache__", ".runs", ".data", ".tools"),
        )
    return {"small": small, "large": large}


def measure(root: Path, kind: str, scratch: bool, runs: int) -> list[float]:
    ctx = ToolContext(
        workspace=Workspace(root),
        permissions=PermissionSet.for_mode("full"),
        sandbox=SandboxConfig(kind=kind),
    )  # type: ignore[arg-type]
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        result = run_process("true", root, 60, ctx, keep_changes=scratch)
        times.append(time.perf_counter() - start)
        assert result.exit_code == 0, result.stderr
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    kinds = [k for k in ("bubblewrap", "landlock", "none") if backend_status(k)[0]]
    load_before = note_load("before")
    rows: list[list[object]] = []
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        spaces = workspaces(Path(tmp))
        files = {
            name: sum(1 for p in root.rglob("*") if p.is_file()) for name, root in spaces.items()
        }
        for name, root in spaces.items():
            for kind in kinds:
                for scratch in (False, True):
                    stats = summary_ms(measure(root, kind, scratch, args.runs))
                    label = f"{name}/{kind}/{'scratch' if scratch else 'in place'}"
                    results[label] = stats
                    rows.append(
                        [
                            name,
                            files[name],
                            kind,
                            "scratch" if scratch else "in place",
                            stats["p50_ms"],
                            stats["p95_ms"],
                        ]
                    )
    print(table(["workspace", "files", "sandbox", "where", "p50 ms", "p95 ms"], rows))
    write_results(
        "shell_sandbox",
        {
            "runs": args.runs,
            "files": files,
            "results": results,
            "load_before": load_before,
            "load_after": note_load("after"),
        },
    )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    sys.exit(main())
