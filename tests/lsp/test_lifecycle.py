"""The LSP 3.17 lifecycle, end to end over the real server's stdio: -32002 before
`initialize`, `initialize` once, -32600 after `shutdown`, exit codes 0/1 — for standard
and `agent/*` methods alike; and a legal request never gets an internal error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.conftest import copy_sample, find
from tests.lsp.wire import Wire, initialize_params

NOT_INITIALIZED, INVALID_REQUEST, INVALID_PARAMS = -32002, -32600, -32602


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "outside").mkdir()
    return copy_sample(tmp_path)


@pytest.fixture
def wire(tmp_path: Path, ws: Path) -> Iterator[Wire]:
    w = Wire(tmp_path, tmp_path / "outside")
    yield w
    w.close()


def definition_params(root: Path) -> dict[str, Any]:
    line, char = find(root, "app.py", "Cart()")
    return {"textDocument": {"uri": (root / "app.py").as_uri()}, "position": {"line": line, "character": char}}


def assert_definition_works(wire: Wire, root: Path) -> None:
    reply = wire.request("textDocument/definition", definition_params(root))
    assert [loc["uri"] for loc in reply["result"]] == [(root / "src/shop/cart.py").as_uri()]


def code(reply: dict[str, Any]) -> int:
    return int(reply["error"]["code"])


BEFORE_INIT = [
    ("textDocument/hover", lambda root: {"textDocument": {"uri": (root / "app.py").as_uri()}, "position": {"line": 0, "character": 0}}),
    ("textDocument/definition", definition_params),
    ("agent/tools", lambda root: {}),
    ("agent/status", lambda root: {"runId": "x"}),
    ("shutdown", lambda root: None),
]


def test_requests_before_initialize_get_server_not_initialized(wire: Wire, ws: Path) -> None:
    for method, params in BEFORE_INIT:
        reply = wire.request(method, params(ws))
        assert code(reply) == NOT_INITIALIZED, (method, reply)
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": (ws / "new.py").as_uri(), "languageId": "python", "version": 1, "text": "def f(): pass\n"}})
    assert "result" in wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    assert_definition_works(wire, ws)
    # the didOpen before initialize was dropped: the document is not open
    symbols = wire.request("textDocument/documentSymbol", {"textDocument": {"uri": (ws / "new.py").as_uri()}})
    assert symbols["result"] is None


def test_initialize_is_answered_once(wire: Wire, ws: Path) -> None:
    first = wire.request("initialize", initialize_params(ws))
    assert first["result"]["capabilities"]["definitionProvider"]
    second = wire.request("initialize", initialize_params(ws))
    assert code(second) == INVALID_REQUEST
    wire.notify("initialized", {})
    assert_definition_works(wire, ws)


def test_after_shutdown_every_request_is_invalid_and_exit_is_clean(wire: Wire, ws: Path) -> None:
    wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    assert_definition_works(wire, ws)
    assert wire.request("shutdown") == {"jsonrpc": "2.0", "id": wire_last_id(wire), "result": None}
    for method, params in [("textDocument/definition", definition_params(ws)), ("agent/tools", {}), ("shutdown", None), ("initialize", initialize_params(ws))]:
        assert code(wire.request(method, params)) == INVALID_REQUEST, method
    wire.notify("exit")
    assert wire.proc.wait(20) == 0
    assert wire.error_popups() == []


def wire_last_id(wire: Wire) -> int:
    return int(wire.seen[-1]["id"])


@pytest.mark.parametrize("before", [[], ["initialize"], ["initialize", "initialized"]])
def test_exit_without_shutdown_exits_1(wire: Wire, ws: Path, before: list[str]) -> None:
    if "initialize" in before:
        wire.request("initialize", initialize_params(ws))
    if "initialized" in before:
        wire.notify("initialized", {})
    wire.notify("exit")
    assert wire.proc.wait(20) == 1


@pytest.mark.parametrize("command", ["agentls.agent.run", "agentls.agent.cancel"])
def test_commands_without_arguments_are_invalid_params_not_internal_errors(wire: Wire, ws: Path, command: str) -> None:
    wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    reply = wire.request("workspace/executeCommand", {"command": command})
    assert code(reply) == INVALID_PARAMS and "required" in reply["error"]["message"]
    too_many = wire.request("workspace/executeCommand", {"command": command, "arguments": [{}, {}]})
    assert code(too_many) == INVALID_PARAMS


def test_a_did_change_for_a_document_never_opened_is_ignored_quietly(wire: Wire, ws: Path) -> None:
    wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x = 1\n"}
    wire.notify("textDocument/didChange", {"textDocument": {"uri": (ws / "app.py").as_uri(), "version": 2}, "contentChanges": [change]})
    assert_definition_works(wire, ws)  # app.py is unchanged: the change was not applied
    wire.drain(0.3)
    assert wire.error_popups() == []
    assert "not open: ignored" in wire.stderr()


@pytest.mark.parametrize(
    ("method", "params", "field"),
    [
        ("textDocument/hover", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": -1, "character": 0}}, "position"),
        ("textDocument/definition", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": 0}}, "position.character"),
        ("textDocument/references", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": 0, "character": 0}}, "context"),
        ("textDocument/documentSymbol", {"textDocument": 7}, "textDocument.uri"),
        ("agent/status", {"runId": 7}, "runId"),
    ],
)
def test_invalid_params_name_the_field_for_standard_and_agent_methods(wire: Wire, ws: Path, method: str, params: dict[str, Any], field: str) -> None:
    wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    reply = wire.request(method, params)
    assert code(reply) == INVALID_PARAMS and reply["error"]["data"]["field"] == field, reply


@pytest.mark.parametrize("params", [None, {}, [1, 2]])
def test_an_unknown_method_is_method_not_found_whatever_its_params(wire: Wire, ws: Path, params: Any) -> None:
    wire.request("initialize", initialize_params(ws))
    wire.notify("initialized", {})
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 0, "method": "0"}
    if params is not None:
        message["params"] = params
    wire.send(message)
    reply = wire.response(0)
    assert reply["error"]["code"] == -32601, reply  # not -32603 (pygls failed to read the params first)
    assert_definition_works(wire, ws)
