"""References on a heavily used name, as an editor drives them over stdio: streamed as
partial results when the client offers a token, cancellable with `$/cancelRequest`, never
blocking a definition asked meanwhile, and ended with ContentModified by an edit.

The workspace: `core.py` defines `target`; 200 modules call it 150 times each (30k
references), beside a decoy module with its own `target` whose uses must never appear."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.wire import Wire, initialize_params

MODULES, CALLS = 200, 150
REQUEST_CANCELLED, CONTENT_MODIFIED = -32800, -32801


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("heavy")
    (root / "core.py").write_text("def target(n):\n    return n\n")
    (root / "decoy.py").write_text("def target(n):\n    return -n\n\n\nx = target(1)\n")
    body = "".join(f"    total += target({i})\n" for i in range(CALLS))
    for i in range(MODULES):
        (root / f"m{i}.py").write_text(f"from core import target\n\n\ndef run{i}():\n    total = 0\n{body}    return total\n")
    return root


@pytest.fixture
def wire(tmp_path: Path, ws: Path) -> Iterator[Wire]:
    w = Wire(tmp_path, tmp_path / "outside")
    caps = {"window": {"workDoneProgress": False}}
    assert "result" in w.request("initialize", {**initialize_params(ws), "capabilities": caps})
    w.notify("initialized", {})
    # the index is ready once a definition answers
    answer = w.request("textDocument/definition", _at(ws, "m0.py", 5, 14), timeout=120)
    assert answer.get("result"), answer
    yield w
    w.request("shutdown")
    w.notify("exit")
    w.close()


def _at(ws: Path, rel: str, line: int, character: int) -> dict[str, Any]:
    return {"textDocument": {"uri": (ws / rel).as_uri()}, "position": {"line": line, "character": character}}


def _refs(ws: Path, **extra: Any) -> dict[str, Any]:
    return {**_at(ws, "core.py", 0, 5), "context": {"includeDeclaration": True}, **extra}


def _key(loc: dict[str, Any]) -> tuple[str, int, int]:
    return (Path(loc["uri"]).name, loc["range"]["start"]["line"], loc["range"]["start"]["character"])


def test_partial_results_stream_the_whole_answer_and_the_reply_is_empty(wire: Wire, ws: Path) -> None:
    whole = wire.request("textDocument/references", _refs(ws), timeout=120)["result"]
    assert len(whole) == MODULES * (CALLS + 1) + 1  # every call and import, and the def
    assert not any(Path(loc["uri"]).name == "decoy.py" for loc in whole)
    rid = next(wire.ids)
    wire.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/references", "params": _refs(ws, partialResultToken="p1")})
    got = wire.drain(120, until=lambda m: m.get("id") == rid and "method" not in m)
    assert got[-1].get("result") == []
    partial = [m["params"]["value"] for m in got if m.get("method") == "$/progress" and m["params"]["token"] == "p1"]
    assert len(partial) > 1, "one slice: nothing was streamed"
    streamed = [loc for batch in partial for loc in batch]
    assert sorted(map(_key, streamed)) == sorted(map(_key, whole))


def test_a_cancelled_search_answers_request_cancelled(wire: Wire, ws: Path) -> None:
    rid = next(wire.ids)
    wire.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/references", "params": _refs(ws)})
    wire.notify("$/cancelRequest", {"id": rid})
    reply = wire.response(rid, timeout=60)
    assert reply.get("error", {}).get("code") == REQUEST_CANCELLED, reply
    # and the server goes on answering
    assert wire.request("textDocument/definition", _at(ws, "m1.py", 5, 14))["result"]


def test_a_definition_asked_during_a_search_is_answered_first(wire: Wire, ws: Path) -> None:
    rid = next(wire.ids)
    wire.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/references", "params": _refs(ws)})
    did = next(wire.ids)
    wire.send({"jsonrpc": "2.0", "id": did, "method": "textDocument/definition", "params": _at(ws, "m2.py", 5, 14)})
    order = [m["id"] for m in wire.drain(120, until=lambda m: m.get("id") == rid and "method" not in m) if "method" not in m]
    assert order.index(did) < order.index(rid), order
    assert order[-1] == rid


def test_an_edit_during_a_search_ends_it_with_content_modified(wire: Wire, ws: Path) -> None:
    uri = (ws / "m3.py").as_uri()
    text = (ws / "m3.py").read_text()
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    rid = next(wire.ids)
    wire.send({"jsonrpc": "2.0", "id": rid, "method": "textDocument/references", "params": _refs(ws)})
    wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text + "\n# edited\n"}]})
    reply = wire.response(rid, timeout=60)
    assert reply.get("error", {}).get("code") == CONTENT_MODIFIED, reply
    again = wire.request("textDocument/references", _refs(ws), timeout=120)["result"]
    assert len(again) == MODULES * (CALLS + 1) + 1
