"""Run the agent benchmark: every task through the real CLI, verified, tabulated.

For each task: its workspace is written to a scratch folder and committed to git; then
`agentls run GOAL --workspace DIR --mode M --approve auto --json --model local --record
FILE` runs as a subprocess (timeout, its own process group). The runner timestamps each
stderr progress line and each recorded model turn as they appear, so it knows the time of
the first step (the first tool call, model load included), each turn's seconds and the
tokens the model produced (usage from the recording). The result workspace is then
verified (bench_verify.py). Results: one JSON file (default
`tests/bench/results/agent_tasks_<model>.json`) with the machine facts, totals and per task
the status, verdict, seconds, steps, tokens, the progress lines and the final `git diff`;
the scratch folders stay in `tests/bench/agent_tasks/.runs/<stamp>/` (git-ignored) for
reading transcripts.

Usage: `.venv/bin/python tests/bench/agent_tasks/run.py [--model-size 0.5b|1.5b]
[--tasks GLOB,...] [--threads N] [--timeout S] [--max-steps N] [--repeat N] [--out FILE]`.
Must not know: agentls internals (it drives the CLI only).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench_tasks import HERE, Task, all_tasks, interleaved, materialize
from bench_verify import verify

REPO = HERE.parents[2]
RESULTS = REPO / "tests" / "bench" / "results"
RUNS = HERE / ".runs"
PYTHON = REPO / ".venv" / "bin" / "python"
POLL_S = 0.02  # how often the recording is read
OWN_LINES_S = 0.15  # progress lines this close before a recorded turn belong to that turn


class Watch:
    """Timestamps lines as they appear: a pipe (stderr) read in a thread, and a file (the
    recording) polled while the process runs."""

    def __init__(self, start: float) -> None:
        self.start = start
        self.lines: list[tuple[float, str]] = []
        self.turns: list[tuple[float, dict[str, Any]]] = []
        self._stop = threading.Event()

    def read_pipe(self, pipe: Any) -> threading.Thread:
        def run() -> None:
            for raw in iter(pipe.readline, ""):
                self.lines.append((time.monotonic() - self.start, raw.rstrip("\n")))
            pipe.close()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def poll_file(self, path: Path) -> threading.Thread:
        def run() -> None:
            offset, partial = 0, ""
            while True:
                stopping = self._stop.is_set()
                if path.exists():
                    with path.open("r", encoding="utf-8") as fh:
                        fh.seek(offset)
                        chunk = fh.read()
                        offset = fh.tell()
                    partial += chunk
                    *complete, partial = partial.split("\n")
                    now = time.monotonic() - self.start
                    for line in complete:
                        if line.strip():
                            with contextlib.suppress(ValueError):
                                self.turns.append((now, json.loads(line)))
                if stopping:
                    return
                self._stop.wait(POLL_S)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stop.set()


def turn_stats(watch: Watch) -> dict[str, Any]:
    """Per-turn seconds and token counts. A turn ends when its recording line appears (seen
    within the poll interval) and began at the last progress line or turn before that; the
    lines printed within `OWN_LINES_S` before the recording is seen are the turn's own
    (its tool call is printed right after it is recorded)."""
    events = sorted([t for t, _ in watch.lines] + [t for t, _ in watch.turns])
    turns = []
    for when, line in watch.turns:
        before = [t for t in events if t < when - OWN_LINES_S]
        began = before[-1] if before else 0.0
        usage = (line.get("response") or {}).get("usage") or {}
        calls = (line.get("response") or {}).get("tool_calls") or []
        turns.append(
            {
                "kind": (line.get("request") or {}).get("kind"),
                "at_s": round(when, 2),
                "seconds": round(when - began, 2),
                "prompt_tokens": int(usage.get("prompt_tokens", 0)),
                "completion_tokens": int(usage.get("completion_tokens", 0)),
                "tool": calls[0]["name"] if calls else None,
            }
        )
    return {"turns": turns}


def first_step_s(watch: Watch) -> float | None:
    """Seconds from the process start to the first tool call shown on stderr."""
    return next((round(t, 2) for t, line in watch.lines if line.lstrip().startswith("→ ")), None)


def git_diff(root: Path) -> str:
    """What the run changed (new files included; the scratch repository's index is left staged)."""
    subprocess.run(["git", "add", "-A"], cwd=root, capture_output=True, timeout=30)
    proc = subprocess.run(
        ["git", "diff", "--cached", "--stat", "--patch"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return proc.stdout[:6000]


@contextlib.contextmanager
def model_lock() -> Iterator[None]:
    """One model run at a time on this machine: runners started by different people queue
    here, task by task, so their timings do not include each other's load."""
    RUNS.mkdir(parents=True, exist_ok=True)
    with (RUNS / ".model.lock").open("w") as fh:
        t0 = time.monotonic()
        fcntl.flock(fh, fcntl.LOCK_EX)
        waited = time.monotonic() - t0
        if waited > 1:
            print(
                f"  (waited {waited:.0f} s for another benchmark run)", file=sys.stderr, flush=True
            )
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def run_task(
    task: Task, folder: Path, args: argparse.Namespace, env: dict[str, str]
) -> dict[str, Any]:
    """One task, end to end: workspace, CLI run, verification."""
    root = materialize(task, folder / "ws")
    record = folder / "turns.jsonl"
    cmd = [
        str(PYTHON),
        "-m",
        "agentls.cli",
        "run",
        task.goal,
        "--workspace",
        str(root),
        "--mode",
        task.mode,
        "--approve",
        "auto",
        "--json",
        "--model",
        args.model,
        "--record",
        str(record),
    ]
    if args.max_steps:
        cmd += ["--max-steps", str(args.max_steps)]
    start = time.monotonic()
    watch = Watch(start)
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
    )
    out: list[str] = []
    out_reader = threading.Thread(
        target=lambda: out.append(proc.stdout.read() if proc.stdout else ""), daemon=True
    )
    out_reader.start()
    readers = [out_reader, watch.read_pipe(proc.stderr), watch.poll_file(record)]
    timed_out = False
    try:
        proc.wait(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    seconds = time.monotonic() - start
    watch.stop()
    for r in readers:
        r.join(timeout=5)
    result: dict[str, Any] = {}
    stdout = "".join(out)
    if stdout.strip():
        try:
            result = json.loads(stdout.strip().splitlines()[-1])
        except ValueError:
            result = {}
    status = (
        "timeout" if timed_out else str(result.get("status") or f"crashed (exit {proc.returncode})")
    )
    summary = str(result.get("summary") or "")
    verdict = verify(task, root, status, summary)
    steps = result.get("steps")
    # A goal that must fail is met only when the agent looked and gave up, not when the
    # run died before its first step (no model, a crash).
    verified = verdict.ok and (task.expect_status == "completed" or bool(steps))
    stats = turn_stats(watch)
    (folder / "stderr.log").write_text(
        "\n".join(f"{t:7.2f} {line}" for t, line in watch.lines) + "\n", encoding="utf-8"
    )
    return {
        "task": task.name,
        "category": task.category,
        "mode": task.mode,
        "goal": task.goal,
        "expect_status": task.expect_status,
        "status": status,
        "exit_code": proc.returncode,
        "verified": verified,
        "false_completion": status == "completed" and not verified,
        "unparseable": verdict.unparseable,
        "seconds": round(seconds, 2),
        "first_step_s": first_step_s(watch),
        "steps": steps,
        "proposals": len(result.get("proposals") or []),
        "summary": summary,
        "checks": [c.to_dict() for c in verdict.checks],
        "prompt_tokens": sum(t["prompt_tokens"] for t in stats["turns"]),
        "completion_tokens": sum(t["completion_tokens"] for t in stats["turns"]),
        **stats,
        "errors": [
            line[:300]
            for _, line in watch.lines
            if line.lstrip().startswith(("!", "agentls:", "Traceback"))
        ],
        "progress": [f"{t:.1f}s {line[:300]}" for t, line in watch.lines][:200],
        "diff": git_diff(root),
        "folder": str(folder.relative_to(REPO)) if folder.is_relative_to(REPO) else str(folder),
    }


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The issue's measures over every run."""
    n = len(rows)
    turns = [t for r in rows for t in r["turns"]]
    later = [t for r in rows for t in r["turns"][1:]]  # the first turn carries the model load
    gen_s = sum(t["seconds"] for t in later)
    gen_tokens = sum(t["completion_tokens"] for t in later)
    by_cat: dict[str, list[bool]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(r["verified"])
    return {
        "runs": n,
        "verified": sum(r["verified"] for r in rows),
        "verified_rate": round(sum(r["verified"] for r in rows) / n, 3) if n else None,
        "false_completions": sum(r["false_completion"] for r in rows),
        "false_completion_rate": round(sum(r["false_completion"] for r in rows) / n, 3)
        if n
        else None,
        "unparseable_runs": sum(bool(r["unparseable"]) for r in rows),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "median_seconds": _median([r["seconds"] for r in rows]),
        "median_steps": _median([r["steps"] for r in rows if r["steps"] is not None]),
        "median_first_step_s": _median(
            [r["first_step_s"] for r in rows if r["first_step_s"] is not None]
        ),
        "max_first_step_s": max(
            (r["first_step_s"] for r in rows if r["first_step_s"] is not None), default=None
        ),
        "turns": len(turns),
        "median_turn_s": _median([t["seconds"] for t in later]),
        "completion_tokens_per_s": round(gen_tokens / gen_s, 1) if gen_s else None,
        "by_category": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_cat.items())},
        "statuses": {
            s: sum(r["status"] == s for r in rows) for s in sorted({r["status"] for r in rows})
        },
    }


def export_ref(ref: str, dest: Path) -> str:
    """`server/` and `grammars/` as committed at `ref`, written to `dest`; names the commit."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short", ref], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", sha, "server", "grammars"],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return f"{ref} ({sha})"


def machine(env: dict[str, str]) -> dict[str, Any]:
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "server"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    return {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "git_head": head,
        "server_tree_dirty": bool(dirty),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "model_size": env.get("AGENTLS_LOCAL_MODEL", "0.5b"),
        "threads": env.get("AGENTLS_LOCAL_THREADS", "auto (default: the cores other processes leave free, per turn)"),
    }


def print_table(rows: list[dict[str, Any]], total: dict[str, Any]) -> None:
    head = f"{'task':30} {'category':10} {'status':16} {'ok':3} {'sec':>6} {'1st':>5} {'steps':>5}  failed checks"
    print(head)
    print("-" * len(head))
    for r in rows:
        bad = ", ".join(f"{c['check']}: {c['detail']}"[:70] for c in r["checks"] if not c["ok"])
        if r["status"] != r["expect_status"]:
            bad = f"status≠{r['expect_status']}" + (f"; {bad}" if bad else "")
        first = f"{r['first_step_s']:.0f}" if r["first_step_s"] is not None else "-"
        print(
            f"{r['task']:30} {r['category']:10} {r['status']:16} {'yes' if r['verified'] else 'NO':3} "
            f"{r['seconds']:6.1f} {first:>5} {r['steps'] if r['steps'] is not None else '-':>5}  {bad[:120]}"
        )
    print()
    for key, value in total.items():
        print(f"{key:24} {value}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-size", choices=("0.5b", "1.5b"), default="0.5b")
    parser.add_argument(
        "--model", default="local", help="agentls --model spec (default local, the embedded model)"
    )
    parser.add_argument(
        "--tasks", default="", help="comma-separated task names or globs (default: all)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="AGENTLS_LOCAL_THREADS (default: agentls's own, 1)",
    )
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="seconds per run (default 300)"
    )
    parser.add_argument(
        "--max-steps", type=int, default=None, help="passed to agentls run --max-steps"
    )
    parser.add_argument(
        "--ref",
        default=None,
        help="run agentls as committed at this git ref (exported with git archive) instead of the work tree",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per task (default 1)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="only 1 (sequential) is supported: one model at a time"
    )
    parser.add_argument(
        "--out",
        default=None,
        help="result JSON (default: tests/bench/results/agent_tasks_<size>.json)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep .runs/<stamp>/ even for verified runs"
    )
    parser.add_argument(
        "--show",
        default=None,
        metavar="FILE",
        help="print the table of an earlier result file and exit",
    )
    args = parser.parse_args()
    if args.show:
        saved = json.loads(Path(args.show).read_text(encoding="utf-8"))
        print_table(saved["runs"], saved["totals"])
        return 0
    if args.jobs != 1:
        parser.error(
            "--jobs: only 1 is supported (2 shared cores; runs would distort each other's timings)"
        )
    if not PYTHON.exists():
        parser.error(
            f"{PYTHON} not found: install agentls into .venv first (pip install -e '.[local]')"
        )
    tasks = interleaved(all_tasks([p.strip() for p in args.tasks.split(",") if p.strip()] or None))
    if not tasks:
        parser.error(f"no task matches {args.tasks!r}")
    env = {**os.environ, "AGENTLS_LOCAL_MODEL": args.model_size}
    if args.threads:
        env["AGENTLS_LOCAL_THREADS"] = str(args.threads)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{args.model_size}"
    source = "working tree"
    if args.ref:
        source = export_ref(args.ref, RUNS / stamp / "source")
        env["PYTHONPATH"] = str(RUNS / stamp / "source" / "server")
    out = Path(args.out) if args.out else RESULTS / f"agent_tasks_{args.model_size}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    facts = {**machine(env), "agentls_source": source}
    rows: list[dict[str, Any]] = []
    planned = len(tasks) * args.repeat
    for rep in range(args.repeat):
        for task in tasks:
            folder = RUNS / stamp / (task.name if args.repeat == 1 else f"{task.name}.{rep}")
            folder.mkdir(parents=True, exist_ok=True)
            with model_lock():
                row = run_task(task, folder, args, env)
            rows.append(row)
            print(
                f"[{len(rows)}/{planned}] {task.name}: {row['status']} "
                f"{'verified' if row['verified'] else 'NOT verified'} {row['seconds']:.1f}s "
                f"steps={row['steps']} first_step={row['first_step_s']}",
                file=sys.stderr,
                flush=True,
            )
            if row["verified"] and not args.keep:
                shutil.rmtree(folder / "ws", ignore_errors=True)
            total = totals(rows)
            payload = {
                "machine": {**facts, "loadavg_end": [round(x, 2) for x in os.getloadavg()]},
                "args": vars(args),
                "complete": len(rows) == planned,
                "totals": total,
                "runs": rows,
            }
            # written after every run, so a long run can be read (and stopped) midway
            out.write_text(
                json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
    print_table(rows, total)
    print(f"\nresults: {out}\ntranscripts: {RUNS / stamp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
