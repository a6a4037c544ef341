"""pygls 2.1 bugs our server works around (framing.py, protocol.py, server.py), shown on a
bare `pygls.lsp.server.LanguageServer` over stdio. Each test asserts what LSP 3.17
requires and is expected to fail while the bug is in pygls (strict: when pygls fixes it,
the test passes, fails the suite as XPASS, and the workaround can go)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.wire import frame

BARE = "from pygls.lsp.server import LanguageServer\nLanguageServer('bare', '0').start_io()\n"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}


def talk(messages: list[Any], timeout: float = 20) -> tuple[int | None, list[dict[str, Any]]]:
    """Send the messages (dicts, or raw bytes), close stdin; (exit code or None if the
    process hung, the messages it sent)."""
    data = b"".join(m if isinstance(m, bytes) else frame(json.dumps(m).encode()) for m in messages)
    proc = subprocess.Popen([sys.executable, "-c", BARE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, _ = proc.communicate(data, timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        code = None
    replies = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        replies.append(json.loads(rest[:length]))
        out = rest[length:]
    return code, replies


def replies_to(replies: list[dict[str, Any]], msg_id: int) -> list[dict[str, Any]]:
    return [r for r in replies if r.get("id") == msg_id and "method" not in r]


@pytest.mark.xfail(strict=True, reason="pygls 2.1.1: int(Content-Length) of 20 digits → OverflowError in stdin.read, uncaught; the process dies")
def test_pygls_survives_an_absurd_content_length() -> None:
    code, replies = talk([b"Content-Length: 99999999999999999999\r\n\r\n{}", INIT])
    assert replies_to(replies, 1), f"no answer to initialize; exit code {code}"


@pytest.mark.xfail(strict=True, reason="pygls 2.1.1: _start_io_async catches SystemExit, so `exit` without `shutdown` ends the process with 0")
def test_pygls_exits_1_without_shutdown() -> None:
    code, _ = talk([INIT, {"jsonrpc": "2.0", "method": "exit"}])
    assert code == 1


@pytest.mark.xfail(strict=True, reason="pygls 2.1.1: requests after shutdown are dropped unanswered (LSP: error -32600)")
def test_pygls_answers_requests_after_shutdown() -> None:
    _, replies = talk([INIT, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"}])
    assert [r.get("error", {}).get("code") for r in replies_to(replies, 3)] == [-32600]


@pytest.mark.xfail(strict=True, reason="pygls 2.1.1: requests before initialize are served (LSP: error -32002)")
def test_pygls_refuses_requests_before_initialize() -> None:
    request = {"jsonrpc": "2.0", "id": 7, "method": "workspace/executeCommand", "params": {"command": "nope"}}
    _, replies = talk([request])
    assert [r.get("error", {}).get("code") for r in replies_to(replies, 7)] == [-32002]


@pytest.mark.xfail(strict=True, reason="pygls 2.1.1: an unparsable message becomes a window/showMessage pop-up 'Error in server: …'")
def test_pygls_keeps_malformed_input_out_of_popups() -> None:
    _, replies = talk([INIT, frame(b"{not json"), frame(b"[1]")])
    assert [r for r in replies if r.get("method") == "window/showMessage"] == []


def test_the_bare_server_answers_initialize(tmp_path: Path) -> None:
    """The harness itself works (so the xfails above fail for the stated reason)."""
    code, replies = talk([INIT, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}])
    assert code == 0 and replies_to(replies, 1)[0]["result"]["serverInfo"]["name"] == "bare"
