"""A raw LSP client over the real server's stdio, for tests that must send what a
well-behaved client never would (broken frames, bad JSON, out-of-order lifecycle).

The server runs as `agentls serve` under a Python audit hook that records every file
opened or listed under a forbidden directory (outside the workspace), so tests can assert
that nothing outside the workspace was read; the embedded model is made unavailable, so
a run that hostile traffic starts fails at once.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

AUDITED_SERVER = r"""
import os, sys
forbidden = os.environ["AGENTLS_TEST_FORBIDDEN"]
record = os.environ["AGENTLS_TEST_OPENLOG"]
busy = [False]
def hook(event, args):
    if busy[0] or event not in ("open", "os.listdir", "os.scandir") or not args:
        return
    target = args[0]
    if not isinstance(target, (str, bytes, os.PathLike)):
        return
    busy[0] = True
    try:
        path = os.path.realpath(os.fsdecode(target))
        if path == forbidden or path.startswith(forbidden + os.sep):
            with open(record, "a") as out:
                out.write(f"{event} {path}\n")
    finally:
        busy[0] = False
sys.addaudithook(hook)
from agentls.cli import main
raise SystemExit(main(["serve"]))
"""


class Wire:
    """One server process; messages read on a thread into a queue."""

    def __init__(self, tmp: Path, forbidden: Path) -> None:
        self.openlog = tmp / "opened-outside.log"
        env = dict(os.environ, AGENTLS_TEST_FORBIDDEN=str(forbidden.resolve()), AGENTLS_TEST_OPENLOG=str(self.openlog))
        # a hostile request may well be a valid agent/run: it must fail fast, not load a model
        env["AGENTLS_LOCAL_MODEL"] = "none-for-hostile-tests"
        self.stderr_path = tmp / f"server-{id(self)}.stderr"
        self._stderr = self.stderr_path.open("wb")
        self.proc = subprocess.Popen([sys.executable, "-c", AUDITED_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []  # everything the server sent, in order
        self.ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()

    # --- sending --------------------------------------------------------------------------
    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        self.send_raw(frame(json.dumps(message).encode()))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({} if params is None else {"params": params})})

    def request(self, method: str, params: Any = None, timeout: float = 30.0) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, **({} if params is None else {"params": params})})
        return self.response(msg_id, timeout)

    # --- receiving ------------------------------------------------------------------------
    def response(self, msg_id: Any, timeout: float = 30.0) -> dict[str, Any]:
        for message in self.drain(timeout, until=lambda m: "method" not in m and m.get("id") == msg_id):
            if "method" not in message and message.get("id") == msg_id:
                return message
        raise AssertionError(f"no response to {msg_id!r} within {timeout} s")

    def drain(self, timeout: float, until: Any = None) -> list[dict[str, Any]]:
        """Messages arriving within `timeout` s (stopping early at one matching `until`)."""
        got: list[dict[str, Any]] = []
        while True:
            try:
                message = self.inbox.get(timeout=timeout)
            except queue.Empty:
                return got
            if message is None:
                return got
            got.append(message)
            if "method" in message and "id" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if until is not None and until(message):
                return got

    def error_popups(self) -> list[dict[str, Any]]:
        return [m for m in self.seen if m.get("method") == "window/showMessage" and m["params"].get("type") == 1]

    def opened_outside(self) -> list[str]:
        return self.openlog.read_text().splitlines() if self.openlog.exists() else []

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None, "server sent a header block without Content-Length"
            message = json.loads(out.read(length))
            self.seen.append(message)
            self.inbox.put(message)

    # --- ending ---------------------------------------------------------------------------
    def close(self, timeout: float = 20.0) -> int:
        """Close stdin and wait for the process; its exit code."""
        if self.proc.stdin and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._stderr.close()

    def peak_rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise AssertionError("no VmHWM")


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def initialize_params(root: Path) -> dict[str, Any]:
    return {"processId": None, "rootUri": root.as_uri(), "capabilities": {}, "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}]}
