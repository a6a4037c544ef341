"""Fuzzing the real server (`agentls serve`, stdio, audited) with hostile traffic
(strategies in fuzz_strategies.py). After every example the invariant holds: the process
lives, a known-good definition is answered correctly, every reply has a valid JSON-RPC
shape, no reply is an internal error (-32603), no error pop-up (`window/showMessage`
type Error) was sent, and nothing outside the workspace was opened or listed.

One server takes all the session-level examples; lifecycle orders get a process each.
Bounded (max_examples) so the module runs in well under a minute; $AGENTLS_FUZZ_SCALE
multiplies the examples, and the peak RSS (VmHWM) of the shared server is written to
$AGENTLS_FUZZ_RSS_OUT when set (tests/bench/bench_lsp_hostile.py).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.lsp import fuzz_strategies as fs
from tests.lsp.conftest import copy_sample, find
from tests.lsp.wire import Wire, frame, initialize_params

FUZZ = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
OUTSIDE_SECRET = "OUTSIDE-SECRET"
SCALE = int(os.environ.get("AGENTLS_FUZZ_SCALE", "1"))  # more examples, for the benchmark


class Session:
    """The shared server, its workspace, and the invariant check."""

    def __init__(self, tmp: Path) -> None:
        self.outside = tmp / "outside"
        self.outside.mkdir()
        (self.outside / "secret.py").write_text(f"SECRET = {OUTSIDE_SECRET!r}\n")
        self.root = copy_sample(tmp)
        (self.root / "escape").symlink_to(self.outside, target_is_directory=True)
        self.wire = Wire(tmp, self.outside)
        options = {"model": "openai:none", "baseUrl": "http://127.0.0.1:9/v1", "mode": "read-only", "approval": "never"}
        reply = self.wire.request("initialize", {**initialize_params(self.root), "initializationOptions": options})
        assert "result" in reply
        self.wire.notify("initialized", {})
        line, char = find(self.root, "app.py", "Cart()")
        self.good = {"textDocument": {"uri": (self.root / "app.py").as_uri()}, "position": {"line": line, "character": char}}
        self.good_ids = itertools.count()
        self.checked = 0

    def check(self) -> None:
        wire = self.wire
        assert wire.proc.poll() is None, f"the server died:\n{wire.stderr()[-3000:]}"
        # ends any header line, header block and body (Content-Length ≤ PADDING) left open
        wire.send_raw((b"\r\n" + b" " * fs.PADDING) * 2 + b"\r\n")
        msg_id = f"good-{next(self.good_ids)}"
        wire.send({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/definition", "params": self.good})
        reply = wire.response(msg_id, timeout=15)
        assert [loc["uri"] for loc in reply.get("result") or []] == [(self.root / "src/shop/cart.py").as_uri()], reply
        new = wire.seen[self.checked :]
        self.checked = len(wire.seen)
        for message in new:
            assert_valid_shape(message)
            assert message.get("error", {}).get("code") != -32603, message
            assert not (message.get("method") == "window/showMessage" and message["params"].get("type") == 1), message
            assert OUTSIDE_SECRET not in json.dumps(message), message
        assert wire.opened_outside() == []


def assert_valid_shape(message: dict[str, Any]) -> None:
    assert message.get("jsonrpc") == "2.0", message
    if "method" in message:
        assert isinstance(message["method"], str) and ("id" not in message or isinstance(message["id"], int | str))
        return
    assert "id" in message and (message["id"] is None or isinstance(message["id"], int | str)), message
    assert ("result" in message) != ("error" in message), message
    if "error" in message:
        error = message["error"]
        assert isinstance(error.get("code"), int) and isinstance(error.get("message"), str), message


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    s = Session(tmp_path_factory.mktemp("fuzz"))
    s.check()
    yield s
    s.check()
    out = os.environ.get("AGENTLS_FUZZ_RSS_OUT")
    if out:
        Path(out).write_text(f"{s.wire.peak_rss_kb()}\n")
    assert s.wire.request("shutdown")["result"] is None
    s.wire.notify("exit")
    assert s.wire.close() == 0


def test_the_strategies_cover_every_registered_method() -> None:
    from agentls.lsp.server import create_server

    fm = create_server().protocol.fm
    registered = set(fm.features) | set(fm.builtin_features)
    assert registered - fs.LIFECYCLE <= set(fs.templates(Path("/w")))


@settings(FUZZ, max_examples=200 * SCALE)
@given(data=fs.byte_soup())
def test_byte_soup_and_broken_frames(session: Session, data: bytes) -> None:
    session.wire.send_raw(data)
    session.check()


@settings(FUZZ, max_examples=200 * SCALE)
@given(message=fs.envelopes())
def test_envelopes_of_every_wrong_shape(session: Session, message: Any) -> None:
    session.wire.send_raw(frame(json.dumps(message).encode()))
    session.check()


@settings(FUZZ, max_examples=300 * SCALE)
@given(data=st.data())
def test_params_of_every_wrong_type_for_every_method(session: Session, data: st.DataObject) -> None:
    method, params = data.draw(fs.wrong_params(session.root))
    if method in fs.NOTIFICATIONS:
        session.wire.notify(method, params)
    else:
        reply = session.wire.request(method, params)
        assert "result" in reply or reply["error"]["code"] in (-32602, -32601, -32803), reply
    session.check()


POSITIONED = ["textDocument/definition", "textDocument/references", "textDocument/hover"]


@settings(FUZZ, max_examples=150 * SCALE)
@given(data=st.data())
def test_positions_and_uris_out_of_range(session: Session, data: st.DataObject) -> None:
    uri = data.draw(fs.uris(session.root, session.outside))
    method = data.draw(st.sampled_from([*POSITIONED, "textDocument/documentSymbol", "textDocument/codeAction", "agent/run-context", "read_file"]))
    if method == "textDocument/codeAction":  # a selection and a diagnostic anywhere
        rng, diag = ({"start": data.draw(fs.positions()), "end": data.draw(fs.positions())} for _ in range(2))
        context = {"diagnostics": [{"range": diag, "message": data.draw(st.text(max_size=50))}]}
        reply = session.wire.request(method, {"textDocument": {"uri": uri}, "range": rng, "context": context})
        assert "result" in reply or reply["error"]["code"] == -32602, reply
    elif method == "read_file":  # a tool path built from the URI's tail
        path = uri.split("://", 1)[-1].removeprefix(str(session.root))
        reply = session.wire.request("agent/executeTool", {"name": "read_file", "input": {"path": path}, "mode": "read-only"})
        assert reply.get("result", {}).get("ok") is not True or OUTSIDE_SECRET not in json.dumps(reply)
    elif method == "agent/run-context":  # the context is checked before any run starts
        reply = session.wire.request("agent/run", {"goal": "x", "maxSteps": 0, "context": {"uri": uri}})
        assert reply["error"]["code"] == -32602
    else:
        params: dict[str, Any] = {"textDocument": {"uri": uri}}
        if method != "textDocument/documentSymbol":
            params["position"] = data.draw(fs.positions())
        if method == "textDocument/references":
            params["context"] = {"includeDeclaration": data.draw(st.booleans())}
        reply = session.wire.request(method, params)
        assert "result" in reply or reply["error"]["code"] == -32602, reply
    session.check()


MAX_UINT = 2**31 - 1


def test_positions_at_the_uinteger_limit(session: Session) -> None:
    """Legal positions at LSP's limit (a diagnostic on the last line made codeAction
    compute line 2**31, an internal error)."""
    doc = {"uri": (session.root / "app.py").as_uri()}
    far = {"line": MAX_UINT, "character": MAX_UINT}
    rng = {"start": far, "end": far}
    requests = [
        ("textDocument/codeAction", {"textDocument": doc, "range": rng, "context": {"diagnostics": [{"range": rng, "message": "x"}]}}),
        ("textDocument/definition", {"textDocument": doc, "position": far}),
        ("textDocument/hover", {"textDocument": doc, "position": far}),
        ("textDocument/references", {"textDocument": doc, "position": far, "context": {"includeDeclaration": True}}),
        ("textDocument/prepareRename", {"textDocument": doc, "position": far}),
        ("textDocument/rename", {"textDocument": doc, "position": far, "newName": "x"}),
    ]
    for method, params in requests:
        reply = session.wire.request(method, params)
        assert "result" in reply or reply["error"]["code"] in (-32602, -32803), (method, reply)
    session.check()


@settings(FUZZ, max_examples=25 * SCALE)
@given(document=fs.documents(), data=st.data())
def test_documents_of_extreme_shape(session: Session, document: tuple[str, str, bytes], data: st.DataObject) -> None:
    language, suffix, text = document
    uri = (session.root / f"extreme{suffix}").as_uri()
    head = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": "@"}}})
    session.wire.send_raw(frame(head.encode().replace(b'"@"', text)))
    at = {"textDocument": {"uri": uri}, "position": data.draw(fs.positions())}
    for method, params in [("textDocument/documentSymbol", {"textDocument": {"uri": uri}}), ("textDocument/hover", at), ("textDocument/definition", at)]:
        reply = session.wire.request(method, params, timeout=60)
        assert "result" in reply or reply["error"]["code"] == -32602, reply
    edit = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "\u00e9\U0001f600"}
    session.wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [edit]})
    session.wire.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    session.check()


def expected_lifecycle(steps: list[str]) -> tuple[list[tuple[str, int | None]], int]:
    """What LSP 3.17 says each request gets (None: a result) and the exit code."""
    initialized = shut = False
    replies: list[tuple[str, int | None]] = []
    for step in steps:
        if step == "exit":
            return replies, 0 if shut else 1
        if step in ("initialize", "request", "shutdown"):
            if shut:
                replies.append((step, -32600))
            elif not initialized:
                replies.append((step, None if step == "initialize" else -32002))
                initialized = step == "initialize"
            else:
                replies.append((step, -32600 if step == "initialize" else None))
                shut = step == "shutdown"
    return replies, 0


@settings(FUZZ, max_examples=6 * SCALE)
@given(steps=fs.lifecycle_orders())
def test_lifecycle_orders(tmp_path_factory: pytest.TempPathFactory, steps: list[str]) -> None:
    tmp = tmp_path_factory.mktemp("order")
    (tmp / "outside").mkdir()
    root = copy_sample(tmp)
    wire = Wire(tmp, tmp / "outside")
    expected, exit_code = expected_lifecycle(steps)
    got: list[tuple[str, int | None]] = []
    try:
        for step in steps:
            if step == "exit":
                wire.notify("exit")
                break
            if step == "initialized":
                wire.notify("initialized", {})
            elif step == "notification":
                wire.notify("textDocument/didOpen", {"textDocument": {"uri": (root / "n.py").as_uri(), "languageId": "python", "version": 1, "text": "n = 1\n"}})
            else:
                method, params = {"initialize": ("initialize", initialize_params(root)), "request": ("agent/tools", {}), "shutdown": ("shutdown", None)}[step]
                reply = wire.request(method, params)
                got.append((step, reply["error"]["code"] if "error" in reply else None))
        assert got == expected
        assert wire.close() == exit_code
        assert wire.error_popups() == [] and wire.opened_outside() == []
    finally:
        wire.close()
