"""One writer at a time per workspace, across every agentls process on the machine.

`WriteLock(root, holder)` is an exclusive `fcntl.flock` on `<root>/.agentls/write.lock`
(CLI runs, the language server, the ACP and MCP front ends all apply through the
ProposalStore, which checks for staleness and writes under it, so two runs can never
both be told "applied" for conflicting edits). The holder's description is written into
the lock file, so a writer that waits too long (`timeout_s`) can say who holds it. Taking
the lock sweeps the temporary files of crashed writers first (`durable.sweep`).

Under the lock, `record(contents, who)` notes who last wrote each file (its content hash,
in `.agentls/writes.json`, the newest 256), and `writer_of(path, data)` tells whether the
content found now is what some writer put there: the run a stale proposal lost to.
Must not know: proposals, runs, tools, LSP.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentls.workspace.durable import STATE_DIR, state_folder, sweep, tmp_folder

LOCK_FILE = "write.lock"
LEDGER_FILE = "writes.json"
LEDGER_SIZE = 256
DEFAULT_TIMEOUT_S = 30.0


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


class WriteLock:
    def __init__(self, root: str | os.PathLike[str], holder: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.root = Path(root)
        self.holder = holder
        self.timeout_s = timeout_s
        self._fd: int | None = None

    def __enter__(self) -> WriteLock:
        folder = state_folder(self.root / STATE_DIR)
        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            self._take(fd)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{self.holder} (pid {os.getpid()})\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        sweep(self.root)
        return self

    def _take(self, fd: int) -> None:
        deadline = time.monotonic() + self.timeout_s
        pause = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    held_by = os.pread(fd, 400, 0).decode("utf-8", "replace").strip() or "another process"
                    raise TimeoutError(
                        errno.ETIMEDOUT,
                        f"the workspace's write lock has been held for {self.timeout_s:g} s by {held_by}",
                    ) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)

    def __exit__(self, *exc: object) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # releases the flock

    # --- who wrote what ---------------------------------------------------------------
    def _ledger(self) -> dict[str, Any]:
        try:
            data = json.loads((self.root / STATE_DIR / LEDGER_FILE).read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        files = data.get("files") if isinstance(data, dict) else None
        return files if isinstance(files, dict) else {}

    def writer_of(self, path: str, data: bytes | None) -> str | None:
        """Who put `data` in `path`, if an agentls writer did (per the ledger)."""
        entry = self._ledger().get(path)
        if isinstance(entry, dict) and entry.get("sha256") == _digest(data):
            by = entry.get("by")
            return str(by) if by else None
        return None

    def record(self, contents: Mapping[str, bytes | None], who: str) -> None:
        """Note that `who` wrote `contents`; best effort (a full disk loses only the note)."""
        assert self._fd is not None, "record() needs the lock held"
        files = self._ledger()
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        for path, data in contents.items():
            files.pop(path, None)
            files[path] = {"sha256": _digest(data), "by": who, "at": now}
        kept = dict(list(files.items())[-LEDGER_SIZE:])
        with contextlib.suppress(OSError):
            tmp = tmp_folder(self.root) / f"{os.getpid()}-ledger.tmp"
            tmp.write_text(json.dumps({"files": kept}, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.root / STATE_DIR / LEDGER_FILE)
