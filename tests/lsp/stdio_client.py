"""A plain LSP client over the real server's stdio that keeps every message both ways as
plain JSON (`Captured`), answers the server's requests as an editor would
(`workspace/configuration` with its settings, `workspace/applyEdit` applied on disk) and
waits for answers and notifications. Used by docs_capture.py.
Must not know: what it is asked to send.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.lsp.agent_harness import apply_on_disk
from tests.lsp.conftest import SERVER
from tests.lsp.wire import frame


@dataclass(frozen=True)
class Captured:
    """One message, as JSON: `label` is request | result | error (client requests and their
    answers), notification | server-request (from the server), client-result (our answer
    to a server request) or client-notification; `ok` is False for a request answered
    with an error."""

    label: str
    method: str
    body: Any
    ok: bool = True


class StdioClient:
    """A plain LSP client over the server's stdio that keeps every message."""

    def __init__(self, cwd: Path, settings: dict[str, Any] | None = None, env: dict[str, str] | None = None) -> None:
        self.settings = settings or {}  # what workspace/configuration answers
        #: how `agent/plan` is answered: the plan as it was shown, unless a test says otherwise
        #: (None: the editor does not know `agent/plan` and answers it with -32601)
        self.plan_answer: Callable[[Any], Any] | None = lambda params: {"tasks": params["tasks"]}
        self.log: list[Captured] = []
        self._answers: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self._cond = threading.Condition()
        self._write = threading.Lock()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self.proc = subprocess.Popen(
            SERVER, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr, env=env if env is not None else dict(os.environ, AGENTLS_LOCAL_MODEL="none"),
        )  # fmt: skip
        threading.Thread(target=self._read, daemon=True).start()

    # --- sending -----------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        with self._write:
            assert self.proc.stdin is not None
            self.proc.stdin.write(frame(json.dumps(message).encode()))
            self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self._record(Captured("client-notification", method, params))
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Send a request and wait for its answer: `{"result": …}` or `{"error": …}`."""
        msg_id = next(self._ids)
        with self._cond:
            at = len(self.log)
            self.log.append(Captured("request", method, params))
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        with self._cond:
            if not self._cond.wait_for(lambda: msg_id in self._answers, timeout):
                raise AssertionError(f"no answer to {method} within {timeout} s{self.stderr_tail()}")
            answer = self._answers.pop(msg_id)
        if "error" in answer:
            with self._cond:
                self.log[at] = Captured("request", method, params, ok=False)
        if "error" in answer:
            self._record(Captured("error", method, answer["error"]))
        else:
            self._record(Captured("result", method, answer["result"]))
        return answer

    def result(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        answer = self.request(method, params, timeout)
        if "error" in answer:
            raise AssertionError(f"{method} failed: {answer['error']}")
        return answer["result"]

    # --- receiving ---------------------------------------------------------------------
    def _record(self, item: Captured) -> None:
        with self._cond:
            self.log.append(item)
            self._cond.notify_all()

    def wait_for(self, check: Callable[[Captured], bool], timeout: float = 30.0, what: str = "") -> Captured:
        """The first message so far or to come for which `check` holds."""
        with self._cond:
            found: list[Captured] = []

            def seen() -> bool:
                found[:] = [m for m in self.log if check(m)][:1]
                return bool(found)

            if not self._cond.wait_for(seen, timeout):
                raise AssertionError(f"timed out waiting for {what or 'a message'}{self.stderr_tail()}")
            return found[0]

    def event(self, run_id: str, kind: str, **fields: Any) -> dict[str, Any]:
        """Wait for the run's `agent/event` of this kind (and these field values)."""
        found = self.wait_for(
            lambda m: m.label == "notification" and m.method == "agent/event"
            and m.body.get("runId") == run_id and m.body.get("kind") == kind
            and all(m.body.get(k) == v for k, v in fields.items()),
            what=f"{kind} event of {run_id}",
        )  # fmt: skip
        return dict(found.body)

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                return
            message = json.loads(out.read(length))
            if "method" in message and "id" in message:
                self._answer(message)
            elif "method" in message:
                self._record(Captured("notification", message["method"], message.get("params")))
            else:
                with self._cond:
                    self._answers[message["id"]] = message
                    self._cond.notify_all()

    def _answer(self, message: dict[str, Any]) -> None:
        """Answer a request from the server as an editor would."""
        method, params = message["method"], message.get("params")
        self._record(Captured("server-request", method, params))
        result: Any = None
        if method == "workspace/configuration":
            result = [self.settings for _ in params["items"]]
        elif method == "workspace/applyEdit":
            apply_on_disk(params["edit"])
            result = {"applied": True}
        elif method == "agent/plan" and self.plan_answer is not None:  # the user's answer about a plan
            result = self.plan_answer(params)
        elif method.startswith("agent/"):  # an editor that does not know the method
            error = {"code": -32601, "message": f"Method Not Found: {method}"}
            self._record(Captured("client-result", method, error, ok=False))
            self._send({"jsonrpc": "2.0", "id": message["id"], "error": error})
            return
        self._record(Captured("client-result", method, result))
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def stderr_tail(self, chars: int = 2000) -> str:
        """The end of the server's stderr, for a failure message."""
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")[-chars:]
        return f"\nthe server's stderr ends with:\n{text}" if text else ""

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.result("shutdown", None)
            self._send({"jsonrpc": "2.0", "method": "exit"})
        try:
            self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._stderr.close()
