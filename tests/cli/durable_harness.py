"""Driving `agentls run --approve auto` as a real process group with a scripted model, and
timing from the write's own named points (`agentls.workspace.hooks`): the test reads the
events the process writes to a FIFO, never sleeps to guess where it is."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

AGENTLS = [sys.executable, "-m", "agentls.cli"]
GIT = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]


def git(root: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True, text=True).stdout


def git_workspace(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text, "utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def edit_script(tmp: Path, name: str, path: str, old: str, new: str) -> Path:
    """A recorded model that makes one edit_file and finishes."""
    turns: list[dict[str, Any]] = [
        {"response": {"content": json.dumps([f"Edit {path}"])}},
        {"response": {"tool_calls": [{"id": "call_1", "name": "edit_file",
                                      "arguments": {"path": path, "old": old, "new": new}}]}},
        {"response": {"tool_calls": [{"id": "call_2", "name": "finish", "arguments": {"summary": "edited"}}]}},
        {"response": {"content": "[]"}},
    ]  # fmt: skip
    script = tmp / f"{name}.jsonl"
    script.write_text("".join(json.dumps(t) + "\n" for t in turns), "utf-8")
    return script


class Events:
    """The FIFO the processes report their points on (held open for writing too, so it
    never reads as closed between writers)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self._fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self._buffer = b""
        self.seen: list[tuple[str, int]] = []

    def wait_for(self, point: str, pid: int | None = None, timeout: float = 60.0) -> int:
        """Block until a process reports `point` (the given pid, or any); its pid."""
        deadline = time.monotonic() + timeout
        while True:
            for name, who in self.seen:
                if name == point and (pid is None or who == pid):
                    self.seen.remove((name, who))
                    return who
            left = deadline - time.monotonic()
            assert left > 0, f"no process reached {point!r}; seen {self.seen}"
            ready, _, _ = select.select([self._fd], [], [], left)
            if ready:
                self._buffer += os.read(self._fd, 65536)
                *lines, self._buffer = self._buffer.split(b"\n")
                for line in lines:
                    name, _, who = line.decode().partition(" ")
                    self.seen.append((name, int(who)))

    def close(self) -> None:
        os.close(self._fd)


def start_run(root: Path, script: Path, env: dict[str, str], goal: str = "Edit the file") -> subprocess.Popen[str]:
    """`agentls run --approve auto` in its own process group."""
    return subprocess.Popen(
        [*AGENTLS, "run", goal, "--workspace", str(root), "--model", f"replay:{script}",
         "--approve", "auto", "--json"],  # fmt: skip
        env={**os.environ, **env}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )


def kill_group(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)


def traces(root: Path) -> dict[str, dict[str, Any]]:
    """Every run trace of the workspace, parsed (a torn one fails the test here)."""
    folder = root / ".agentls" / "runs"
    return {p.stem: json.loads(p.read_text("utf-8")) for p in folder.glob("*.json")} if folder.is_dir() else {}
