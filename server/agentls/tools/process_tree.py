"""Run one child process to completion and leave nothing behind: capped output capture,
a deadline, cancellation, and killing of the whole process tree.

The child starts in its own session (so its process group is its pid) and carries a
marker variable in its environment. The tree is everything in that process group,
every descendant by parent pid, and every process whose environment holds the marker —
the last catches grandchildren that called setsid() and were re-parented to init (a
process that clears its own environment *and* detaches can escape; the bubblewrap PID
namespace in sandbox.py is the containment that catches everything). When the child
exits, whatever it left running is stopped too: no process outlives its tool call.
Must not know: tools, the workspace, sandboxing policy, what the command is.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from threading import Event

MARKER_VAR = "AGENTLS_PROCESS_TREE"
TERM_GRACE_S = 1.0  # SIGTERM, then SIGKILL after this long
DRAIN_S = 0.5  # after the tree is gone, how long to wait for the pipes to reach EOF
_POLL_S = 0.05


class CappedBuffer:
    """Keeps the first and the last `cap // 2` bytes of a stream and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.half = max(cap // 2, 1)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.half - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.half:
                del self.tail[: len(self.tail) - self.half]

    @property
    def truncated(self) -> bool:
        return self.total > len(self.head) + len(self.tail) or len(self.tail) > self.half

    def text(self) -> str:
        if not self.truncated:
            return (self.head + self.tail).decode("utf-8", "replace")
        tail = bytes(self.tail[-self.half :])
        dropped = self.total - len(self.head) - len(tail)
        marker = f"\n... [{dropped} bytes omitted] ...\n".encode()
        return (bytes(self.head) + marker + tail).decode("utf-8", "replace")


@dataclass(slots=True)
class TreeOutcome:
    exit_code: int | None
    stdout: CappedBuffer
    stderr: CappedBuffer
    timed_out: bool
    cancelled: bool
    killed: bool  # the tree was killed because of the deadline or cancellation
    leftovers_stopped: int  # processes still running after the child exited, then stopped
    duration_ms: int


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgid) from /proc/<pid>/stat, or None when the process is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    return fields[0].decode(), int(fields[1]), int(fields[2])


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def tree_pids(root: int, marker: str) -> set[int]:
    """Live (non-zombie) processes of the tree rooted at `root` (see the module docstring)."""
    needle = f"{MARKER_VAR}={marker}".encode()
    me = os.getpid()
    table: dict[int, tuple[str, int, int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (info := _stat(int(entry.name))) is not None:
            table[int(entry.name)] = info
    found = {pid for pid, (_, _, pgid) in table.items() if pgid == root}
    found |= {pid for pid in table if pid not in found and _has_marker(pid, needle)}
    if root in table:
        found.add(root)
    grew = True
    while grew:  # close over parent → child links
        extra = {pid for pid, (_, ppid, _) in table.items() if ppid in found and pid not in found}
        found |= extra
        grew = bool(extra)
    return {pid for pid in found if pid != me and table[pid][0] not in ("Z", "X")}


def marked_children(marker: str) -> list[int]:
    """This process's live children that carry `marker` (started with MARKER_VAR=marker)."""
    me = os.getpid()
    return sorted(pid for pid in tree_pids(-1, marker) if (info := _stat(pid)) is not None and info[1] == me)


def _signal_all(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def _wait_gone(root: int, marker: str, proc: subprocess.Popen[bytes] | None, secs: float) -> bool:
    deadline = time.monotonic() + secs
    while True:
        if proc is not None:
            proc.poll()  # reap the root so that it no longer counts
        if not tree_pids(root, marker):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def kill_tree(root: int, marker: str, proc: subprocess.Popen[bytes] | None = None) -> int:
    """Stop the tree: SIGTERM, then SIGKILL after TERM_GRACE_S. Returns how many were hit.

    The root's descendants are signalled first and the root a moment later, so that a
    supervisor at the root (a shell, bubblewrap) can exit and reap its own children.
    """
    pids = tree_pids(root, marker)
    if not pids:
        return 0
    _signal_all(pids - {root} or pids, signal.SIGTERM)
    if _wait_gone(root, marker, proc, 0.2):
        return len(pids)
    _signal_all(tree_pids(root, marker), signal.SIGTERM)
    if _wait_gone(root, marker, proc, TERM_GRACE_S):
        return len(pids)
    for _ in range(50):  # something may fork while we kill: repeat until nothing is left
        rest = tree_pids(root, marker)
        if not rest:
            break
        _signal_all(rest - {root} or rest, signal.SIGKILL)
        _wait_gone(root, marker, proc, 0.05)
    if proc is not None and proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(root, signal.SIGKILL)
    return len(pids)


def run_tree(
    argv: Sequence[str],
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    timeout_s: float,
    cancel: Event | None,
    output_cap_bytes: int,
) -> TreeOutcome:
    """Run `argv` until it exits, the deadline passes or `cancel` is set; then stop the tree."""
    marker = uuid.uuid4().hex
    out, err = CappedBuffer(output_cap_bytes), CappedBuffer(output_cap_bytes)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env={**env, MARKER_VAR: marker},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:  # the program does not exist or cannot run: shell semantics
        err.add(f"{argv[0]}: {exc.strerror or exc}\n".encode())
        code = 127 if isinstance(exc, FileNotFoundError) else 126
        return TreeOutcome(code, out, err, False, False, False, 0, 0)
    assert proc.stdout is not None and proc.stderr is not None
    buffers = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    selector = selectors.DefaultSelector()
    for fd in buffers:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    deadline = started + timeout_s
    timed_out = cancelled = killed = False
    leftovers = 0
    drain_until: float | None = None
    try:
        while selector.get_map():
            for key, _ in selector.select(_POLL_S):
                data = os.read(key.fd, 65536)
                if data:
                    buffers[key.fd].add(data)
                else:
                    selector.unregister(key.fd)
            now = time.monotonic()
            if drain_until is None:
                if proc.poll() is not None:
                    leftovers = kill_tree(proc.pid, marker, proc)
                elif cancel is not None and cancel.is_set():
                    cancelled = killed = True
                    kill_tree(proc.pid, marker, proc)
                elif now >= deadline:
                    timed_out = killed = True
                    kill_tree(proc.pid, marker, proc)
                if proc.poll() is not None:
                    drain_until = time.monotonic() + DRAIN_S
            elif now >= drain_until:
                break  # an escaped process still holds a pipe open: stop reading
    finally:
        selector.close()
        if proc.poll() is None:
            kill_tree(proc.pid, marker, proc)
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    duration_ms = int((time.monotonic() - started) * 1000)
    return TreeOutcome(
        proc.returncode, out, err, timed_out, cancelled, killed, leftovers, duration_ms
    )
