"""A small synchronous LSP client over stdio, for driving pyright-langserver and
`agentls serve` from the benchmark scripts.

A reader thread parses the server's messages: replies resolve pending requests; server
requests (workspace/configuration, client/registerCapability, window/workDoneProgress/create,
...) get an empty answer at once so the server never waits on us. stderr goes to a file.
Must not know: agentls internals.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import IO, Any


class LspError(RuntimeError):
    pass


class LspClient:
    def __init__(
        self, cmd: list[str], cwd: Path, stderr_path: Path, env: dict[str, str] | None = None
    ) -> None:
        stderr_path.parent.mkdir(parents=True, exist_ok=True)
        self._stderr = open(stderr_path, "wb")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            start_new_session=True,
        )
        self.leaked: list[int] = []
        self._next = 0
        self._lock = threading.Lock()
        self._pending: dict[int, tuple[threading.Event, list[dict[str, Any]]]] = {}
        self.notifications: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # --- wire ------------------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode("utf-8")
        assert self.proc.stdin is not None
        with self._lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    @staticmethod
    def _read_message(stream: IO[bytes]) -> dict[str, Any] | None:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        if length is None:
            return None
        return json.loads(stream.read(length))

    def _read_loop(self) -> None:
        assert self.proc.stdout is not None
        while True:
            try:
                msg = self._read_message(self.proc.stdout)
            except (ValueError, OSError):
                msg = None
            if msg is None:
                break
            if "method" in msg and "id" in msg:
                self._answer_server_request(msg)
            elif "method" in msg:
                if len(self.notifications) < 1000:
                    self.notifications.append(msg)
            elif "id" in msg:
                waiter = self._pending.pop(msg["id"], None)
                if waiter is not None:
                    waiter[1].append(msg)
                    waiter[0].set()
        for event, _box in list(self._pending.values()):
            event.set()

    def _answer_server_request(self, msg: dict[str, Any]) -> None:
        result: Any = None
        if msg["method"] == "workspace/configuration":
            result = [None for _ in msg.get("params", {}).get("items", [])]
        with contextlib.suppress(OSError):
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    # --- API -------------------------------------------------------------------------
    def request(self, method: str, params: Any, timeout: float = 120.0) -> Any:
        with self._lock:
            self._next += 1
            rid = self._next
        event: threading.Event = threading.Event()
        box: list[dict[str, Any]] = []
        self._pending[rid] = (event, box)
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        if not event.wait(timeout):
            self._pending.pop(rid, None)
            raise LspError(f"{method}: no reply in {timeout}s")
        if not box:
            raise LspError(f"{method}: server exited (code {self.proc.poll()})")
        if "error" in box[0]:
            raise LspError(f"{method}: {box[0]['error']}")
        return box[0].get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, root: Path, options: Any = None, timeout: float = 120.0) -> Any:
        uri = root.resolve().as_uri()
        caps = {
            "textDocument": {
                "definition": {"linkSupport": False},
                "references": {},
                "synchronization": {"didSave": False},
            },
            "workspace": {"workspaceFolders": True, "configuration": False},
            "general": {"positionEncodings": ["utf-16"]},
        }
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri,
                "rootPath": str(root),
                "capabilities": caps,
                "initializationOptions": options,
                "workspaceFolders": [{"uri": uri, "name": root.name}],
            },
            timeout=timeout,
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path, language_id: str) -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8", errors="replace")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}},
        )
        return uri

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def group(self) -> list[int]:
        """PIDs in the server's process group (the server and every worker it forked)."""
        out = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == self.proc.pid:
                out.append(int(entry.name))
        return out

    def close(self) -> None:
        """shutdown + exit; then kill whatever is left of the server's process group (its
        PID is the group id: the server was started in a session of its own)."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (LspError, OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.leaked = self.group()
        if self.leaked:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self._stderr.close()


def locations(result: Any) -> list[tuple[str, int, int]]:
    """(uri, line, character) of each Location / LocationLink in a definition/references reply."""
    if result is None:
        return []
    items = result if isinstance(result, list) else [result]
    out = []
    for item in items:
        if "targetUri" in item:
            rng = item.get("targetSelectionRange") or item["targetRange"]
            out.append((item["targetUri"], rng["start"]["line"], rng["start"]["character"]))
        else:
            out.append(
                (item["uri"], item["range"]["start"]["line"], item["range"]["start"]["character"])
            )
    return out
