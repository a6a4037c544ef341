"""One benchmark run: a task's workspace, the real `agentls run` process, its verdict.

The workspace is written to a scratch folder and committed to git; then `agentls run GOAL
--workspace DIR --mode M --approve auto --json --model local --record FILE` runs as a
subprocess (timeout, its own process group). The stderr progress lines and each recorded
model turn are timestamped as they appear, so the row knows the time of the first step (the
first tool call, model load included), each turn's seconds and the tokens the model produced
(usage from the recording, or the run's own `usage`). The result workspace is then verified
(bench_verify.py). Also here: the lock that queues runners on one machine, the machine's
facts, and the export of agentls at a git ref.
Must not know: agentls internals (it drives the CLI only), which set a task belongs to
beyond the name it is given.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench_measures import reported
from bench_tasks import HERE, Task, materialize
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
    task: Task, folder: Path, args: argparse.Namespace, env: dict[str, str], set_name: str
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
        "set": set_name,
        "split": task.split,
        "source": task.source,
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
        **reported(result, stats["turns"]),
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
        "threads": env.get(
            "AGENTLS_LOCAL_THREADS",
            "auto (default: the cores other processes leave free, per turn)",
        ),
    }
