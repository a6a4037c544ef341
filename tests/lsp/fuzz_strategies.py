"""Hypothesis strategies for hostile LSP traffic (test_fuzz.py): byte soup and broken
frames, JSON-RPC envelopes of every wrong shape, params of every wrong type for every
method the server registers, positions and URIs out of range, documents of extreme shape,
and lifecycle orders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from agentls.lsp.framing import MAX_MESSAGE

#: Never sent to the shared server (they end its session); test_fuzz covers them apart.
LIFECYCLE = frozenset({"initialize", "shutdown", "exit"})
#: Lengths a client may lie with and still be resynchronised by the checker's padding.
PADDING = 4096

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.floats(allow_nan=False), st.text(max_size=30))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=20)


def templates(root: Path) -> dict[str, Any]:
    """A valid params object for every method the server serves (notifications too)."""
    app, scratch = (root / "app.py").as_uri(), (root / "scratch.py").as_uri()
    pos = {"line": 8, "character": 11}
    rng = {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}
    return {
        "textDocument/definition": {"textDocument": {"uri": app}, "position": pos},
        "textDocument/references": {"textDocument": {"uri": app}, "position": pos, "context": {"includeDeclaration": True}},
        "textDocument/hover": {"textDocument": {"uri": app}, "position": pos},
        "textDocument/documentSymbol": {"textDocument": {"uri": app}},
        "textDocument/codeAction": {"textDocument": {"uri": app}, "range": rng, "context": {"diagnostics": []}},
        "textDocument/prepareRename": {"textDocument": {"uri": app}, "position": pos},
        "textDocument/rename": {"textDocument": {"uri": app}, "position": pos, "newName": "Basket"},
        "workspace/symbol": {"query": "Cart"},
        "workspace/executeCommand": {"command": "agentls.agent.cancel", "arguments": [{"runId": "nope"}]},
        "agent/run": {"goal": "say hello", "mode": "read-only", "approval": "never", "maxSteps": 1, "context": {"uri": app, "range": rng}},
        "agent/status": {"runId": "nope"},
        "agent/sessions": {},
        "agent/cancel": {"runId": "nope"},
        "agent/tools": {},
        "agent/executeTool": {"name": "read_file", "input": {"path": "app.py"}, "mode": "read-only"},
        "agent/proposals": {"runId": "nope"},
        "agent/resolveProposal": {"id": "nope", "decision": "rejected", "comment": "no"},
        "agent/undo": {"runId": "nope"},
        "initialized": {},
        "textDocument/didOpen": {"textDocument": {"uri": scratch, "languageId": "python", "version": 1, "text": "x = 1\n"}},
        "textDocument/didChange": {"textDocument": {"uri": scratch, "version": 2}, "contentChanges": [{"range": rng, "text": "y"}]},
        "textDocument/didSave": {"textDocument": {"uri": scratch}},
        "textDocument/didClose": {"textDocument": {"uri": scratch}},
        "workspace/didChangeConfiguration": {"settings": {"agentls": {"maxSteps": 3}}},
        "workspace/didChangeWatchedFiles": {"changes": [{"uri": app, "type": 2}]},
        "workspace/didChangeWorkspaceFolders": {"event": {"added": [], "removed": []}},
        "notebookDocument/didOpen": {"notebookDocument": {"uri": "nb:1", "notebookType": "j", "version": 1, "cells": []}, "cellTextDocuments": []},
        "notebookDocument/didChange": {"notebookDocument": {"uri": "nb:1", "version": 2}, "change": {}},
        "notebookDocument/didClose": {"notebookDocument": {"uri": "nb:1"}, "cellTextDocuments": []},
        "$/setTrace": {"value": "off"},
        "$/cancelRequest": {"id": 123456},
        "window/workDoneProgress/cancel": {"token": "nope"},
    }


NOTIFICATIONS = frozenset(
    {"initialized", "textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose",
     "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders",
     "notebookDocument/didOpen", "notebookDocument/didChange", "notebookDocument/didClose", "$/setTrace",
     "$/cancelRequest", "window/workDoneProgress/cancel"}
)  # fmt: skip


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


def _other_type(value: Any) -> st.SearchStrategy[Any]:
    """JSON values of a type other than `value`'s (ints and floats count as one)."""
    kinds: dict[str, st.SearchStrategy[Any]] = {
        "null": st.none(), "bool": st.booleans(), "number": st.integers(-(2**40), 2**40) | st.floats(allow_nan=False),
        "string": st.text(max_size=20), "array": st.lists(json_leaves, max_size=3), "object": st.dictionaries(st.text(max_size=8), json_leaves, max_size=3),
    }  # fmt: skip
    kind = ("null" if value is None else "bool" if isinstance(value, bool) else "number" if isinstance(value, int | float)
            else "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object")  # fmt: skip
    return st.one_of(*(s for k, s in kinds.items() if k != kind))


@st.composite
def wrong_params(draw: st.DrawFn, root: Path) -> tuple[str, Any]:
    """(method, its params with one value — the params themselves or a field at any
    depth — replaced by a value of another type)."""
    table = templates(root)
    method = draw(st.sampled_from(sorted(table)))
    params = table[method]
    path = draw(st.sampled_from(_paths(params)))
    target = params
    for step in path:
        target = target[step]
    return method, _replace(params, path, draw(_other_type(target)))


def uris(root: Path, outside: Path) -> st.SearchStrategy[str]:
    inside = [(root / p).as_uri() for p in ("app.py", "src/shop/cart.py", "web/src/index.ts", "missing.py", "src")]
    hostile = [
        (outside / "secret.py").as_uri(), f"{root.as_uri()}/../outside/secret.py", f"{root.as_uri()}/escape/secret.py",
        f"{root.as_uri()}/%2e%2e/outside/secret.py", "file:///etc/passwd", "file:///proc/self/environ", "file://host/share/x.py",
        "file:relative.py", "untitled:Untitled-1", "file:///a%00b.py", "file:///%ff%fe.py", "", "::::", "file://" + "a/" * 2000,
    ]  # fmt: skip
    return st.sampled_from(inside + hostile) | st.text(max_size=40)


def positions() -> st.SearchStrategy[Any]:
    number = st.sampled_from([0, 1, 8, 11, 2**31 - 1, 2**31, 2**32, -1, 10**18]) | st.integers(0, 10_000)
    return st.fixed_dictionaries({"line": number, "character": number})


def _nested_python(depth: int) -> str:
    return "".join("  " * i + f"def f{i}():\n" for i in range(depth)) + "  " * depth + "pass\n"


def _nested_ts(depth: int) -> str:
    return "function f() {\n" + "{" * depth + "f();" + "}" * depth + "\n}\n"


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, str, bytes]:
    """(languageId, file suffix, the didOpen `text` as raw JSON bytes) of extreme shape;
    raw so that lone surrogates and control characters can be sent."""
    shape = draw(st.sampled_from(["deep-python", "deep-ts", "long-line", "big", "text", "surrogates", "controls"]))
    if shape == "deep-python":
        text = _nested_python(draw(st.integers(100, 1200)))
    elif shape == "deep-ts":
        text = _nested_ts(draw(st.integers(100, 6000)))
    elif shape == "long-line":
        text = "x = '" + "a" * draw(st.integers(10_000, 1_000_000)) + "'\n"
    elif shape == "big":
        text = "def f(a):\n    return a\n" * draw(st.integers(1_000, 40_000))
    elif shape == "surrogates":
        raw = json.dumps(draw(st.text(max_size=50))).encode()[:-1] + b'\\ud800 \\udfff x\\udbff"'
        return "python", ".py", raw
    elif shape == "controls":
        text = draw(st.text(st.characters(max_codepoint=0x3000, blacklist_categories=["Cs"]), max_size=200)) + "\x00\r\r\n\u2028\ufeff"
    else:
        text = draw(st.text(max_size=300))
    language, suffix = draw(st.sampled_from([("python", ".py"), ("typescript", ".ts")]))
    return language, suffix, json.dumps(text).encode()


def envelopes() -> st.SearchStrategy[Any]:
    """JSON-RPC-ish messages with any field wrong or missing (never a lifecycle method)."""
    method = st.sampled_from(sorted(set(templates(Path("/w"))) - LIFECYCLE)) | st.text(max_size=20).filter(lambda m: m not in LIFECYCLE)
    fields = st.fixed_dictionaries(
        {},
        optional={
            "jsonrpc": st.sampled_from(["2.0", "1.0", 2.0, None]),
            "id": st.integers(-(2**70), 2**70) | st.text(max_size=8) | st.none() | st.booleans() | st.floats() | st.just([1]),
            "method": method | json_leaves,
            "params": json_values,
            "result": json_values,
            "error": json_values,
        },
    )
    return fields | json_values


def _header_lines() -> st.SearchStrategy[bytes]:
    length = st.integers(0, PADDING) | st.integers(MAX_MESSAGE + 1, 10**30) | st.integers(-(10**6), -1)
    return st.one_of(
        length.map(lambda n: b"Content-Length: %d\r\n" % n),
        st.binary(max_size=40).map(lambda b: b"Content-Length: " + b + b"\r\n"),
        st.sampled_from([b"Content-Type: application/json; charset=latin-1\r\n", b"\r\n", b"\n", b"X: " + b"y" * 9000 + b"\r\n", b"Content-Length 5\r\n"]),
        st.binary(max_size=60).filter(lambda b: b"ength" not in b.lower()),
    )


def byte_soup() -> st.SearchStrategy[bytes]:
    """Frames, half-frames and garbage, concatenated."""
    body = st.one_of(envelopes().map(lambda v: json.dumps(v).encode()), st.binary(max_size=200), st.just(b"\xff\xfe\xfd"), st.just(b"[" * 5000))
    framed = body.map(lambda b: b"Content-Length: %d\r\n\r\n" % len(b) + b)
    return st.lists(st.one_of(framed, body, _header_lines()), min_size=1, max_size=8).map(b"".join)


LIFECYCLE_STEPS = ["initialize", "initialized", "request", "notification", "shutdown", "exit"]


def lifecycle_orders() -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(LIFECYCLE_STEPS), min_size=1, max_size=7)
