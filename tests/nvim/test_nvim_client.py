"""Neovim 0.7 (headless) as a second real LSP client of `agentls serve`.

One Neovim session per module runs the steps of `plan()` through client.lua on a copy of
the sample workspace: definition, references, hover, document and workspace symbols, an
incremental edit through the buffer, then requests the server must answer with nothing
while it keeps serving, then prepareRename/rename and the syntax diagnostics of a buffer
broken and fixed. The tests judge the recorded results, one row per step
(`EXPECTATIONS`), plus the session as a whole. Lines and characters are 0-based, UTF-16.
Must not know: the server's internals (only what an editor sees on the wire).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.nvim.checks import (
    Check,
    empty,
    error_reply,
    first_symbol,
    includes,
    lands_on,
    markdown,
    outline,
    prepared,
    refused,
    renames_references,
    syntax_errors,
)
from tests.nvim.session import Session, run_session

pytestmark = [
    pytest.mark.nvim,
    pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim (nvim) is not on PATH: apt-get install neovim"),
]

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample-workspace"
SERVER = [sys.executable, "-m", "agentls.cli", "serve"]
SESSION_TIMEOUT_S = 150
OUTSIDE_SOURCE = "def f():\n    return f()\n"


def request(name: str, method: str, file: str | None = None, **extra: Any) -> dict[str, Any]:
    step = {"kind": "request", "name": name, "method": method, **extra}
    return step if file is None else {**step, "file": file}


def plan(outside: str) -> list[dict[str, Any]]:
    """What Neovim does, in order (the step kinds are documented in client.lua)."""
    cart = ["cart = Cart()", "Cart"]
    f_call = ["return f()", "f"]
    pwt = ["def price_with_tax", "price_with_tax"]
    with_declaration = {"context": {"includeDeclaration": True}}
    return [
        # The first request also waits for the background index (the server waits <= 30 s).
        request("definition", "textDocument/definition", "app.py", at=cart, timeout_ms=45000),
        request(
            "references",
            "textDocument/references",
            "src/shop/pricing.py",
            at=["def price_with_tax", "price_with_tax"],
            params=with_declaration,
        ),
        request("hover", "textDocument/hover", "app.py", at=cart),
        request("document_symbols", "textDocument/documentSymbol", "src/shop/cart.py"),
        request("workspace_symbols", "workspace/symbol", params={"query": "pricwt"}),
        request("utf16", "textDocument/definition", "src/shop/cart.py", at=["{count}", "count"]),
        # Edits through the buffer: nvim sends incremental didChange events (UTF-16 ranges).
        {
            "kind": "edit",
            "name": "append_helper",
            "file": "app.py",
            "start": -1,
            "stop": -1,
            "lines": ["", "", "def helper() -> None:", "    return main()"],
        },
        {
            "kind": "edit",
            "name": "insert_comment",
            "file": "app.py",
            "start": 1,
            "stop": 1,
            "lines": ["# Ünïcödé 😀: shifts the code below by one line"],
        },
        {"kind": "wait", "name": "debounce", "ms": 400},  # nvim debounces didChange (150 ms)
        request(
            "definition_after_edit",
            "textDocument/definition",
            "app.py",
            at=["    return main()", "main"],
        ),
        # Nothing to answer: empty or null results, and the server keeps serving.
        request("outside_workspace", "textDocument/definition", outside, at=f_call),
        request("line_out_of_range", "textDocument/definition", "app.py", position=[999, 0]),
        request("character_out_of_range", "textDocument/hover", "app.py", position=[0, 999]),
        request(
            "references_outside",
            "textDocument/references",
            outside,
            at=f_call,
            params=with_declaration,
        ),
        # Params lsprotocol rejects (no position): JSON-RPC wants an InvalidParams reply.
        request("invalid_params", "textDocument/hover", "app.py", timeout_ms=2000),
        request("follow_up", "textDocument/hover", "app.py", at=cart),
        # Rename: the same places references found (not the alias's uses), and a refusal.
        request("prepare_rename", "textDocument/prepareRename", "src/shop/pricing.py", at=pwt),
        request("rename", "textDocument/rename", "src/shop/pricing.py", at=pwt, params={"newName": "price_incl_tax"}),
        request("rename_refused", "textDocument/rename", "src/shop/cart.py", at=["count = len", "len"], params={"newName": "size"}),
        # Syntax diagnostics follow the buffer: shown after a broken line, cleared when fixed.
        {"kind": "edit", "name": "break_syntax", "file": "app.py", "start": -1, "stop": -1, "lines": ["def broken(:"]},
        {"kind": "wait", "name": "diagnostics_debounce", "ms": 1500},
        {"kind": "diagnostics", "name": "syntax_error_shown"},
        {"kind": "edit", "name": "fix_syntax", "file": "app.py", "start": -2, "stop": -1, "lines": ["def broken():", "    pass"]},
        {"kind": "wait", "name": "diagnostics_debounce_again", "ms": 1500},
        {"kind": "diagnostics", "name": "syntax_error_cleared"},
    ]


EXPECTATIONS: dict[str, Check] = {
    "definition": lands_on("src/shop/cart.py", "class Cart", offset=len("class ")),
    "references": includes(
        ("src/shop/pricing.py", "def price_with_tax", len("def ")),
        ("src/shop/cart.py", "pwt(item.price)", 0),  # the call through the alias
        ("src/shop/cart.py", "from .pricing import price_with_tax", None),  # the import line
    ),
    "hover": markdown("class Cart", "Items a customer is about to buy."),
    "document_symbols": outline(
        "src/shop/cart.py", "Cart", "class Cart", ["add", "total", "summary"]
    ),
    "workspace_symbols": first_symbol(
        "price_with_tax", "src/shop/pricing.py", "def price_with_tax"
    ),
    # `count` is defined after "Ünïcödé 😀" on its line: UTF-16 character 30, code point 29.
    "utf16": lands_on("src/shop/cart.py", "count = len", 0),
    # Found in the edited buffer: `def main` moved down a line; the `main()` call is new.
    "definition_after_edit": lands_on("app.py", "def main", offset=len("def ")),
    "outside_workspace": empty(),
    "line_out_of_range": empty(),
    "character_out_of_range": empty(),
    "references_outside": empty(),
    "invalid_params": error_reply(-32602),
    "follow_up": markdown("class Cart"),
    "prepare_rename": prepared("src/shop/pricing.py", "def price_with_tax", len("def "), "price_with_tax"),
    "rename": renames_references("references", "price_with_tax", "price_incl_tax"),
    "rename_refused": refused(-32803, "'len' is defined outside the workspace"),
    "syntax_error_shown": syntax_errors("app.py", ["def broken("]),
    "syntax_error_cleared": syntax_errors("app.py", []),
}
KNOWN_FAILURES: dict[str, str] = {}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    tmp = tmp_path_factory.mktemp("nvim")
    root = tmp / "sample-workspace"
    shutil.copytree(SAMPLE, root)
    outside = tmp / "outside" / "elsewhere.py"
    outside.parent.mkdir()
    outside.write_text(OUTSIDE_SOURCE, "utf-8")
    return run_session(tmp, root, SERVER, plan(str(outside)), SESSION_TIMEOUT_S)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name]))
        if name in KNOWN_FAILURES
        else name
        for name in EXPECTATIONS
    ],
)
def test_step(session: Session, name: str) -> None:
    EXPECTATIONS[name](session, session.step(name))


def test_session_ran_every_step_and_shut_down(session: Session) -> None:
    r = session.results
    assert session.returncode == 0 and "error" not in r, f"the session broke{session.diagnostics()}"
    expected = [step["name"] for step in plan("/outside.py")]
    assert r.get("order") == expected, f"steps ran: {r.get('order')}{session.diagnostics()}"
    dead = [name for name in expected if not r["steps"][name].get("alive")]
    assert not dead, f"the server had stopped after: {dead}{session.diagnostics()}"
    assert r.get("stopped") is True, f"the server did not exit on shutdown{session.diagnostics()}"


def test_client_negotiated_utf16_incremental_sync(session: Session) -> None:
    r = session.results
    assert r.get("offset_encoding") == "utf-16", f"offset encoding {r.get('offset_encoding')!r}"
    sync = (r.get("server_capabilities") or {}).get("textDocumentSync")
    change = sync.get("change") if isinstance(sync, dict) else sync
    assert change == 2, f"textDocumentSync is {sync!r}; expected incremental (2)"


def test_edits_reached_the_server_as_incremental_did_change(session: Session) -> None:
    sent = session.results.get("did_change") or []
    changes = [
        change
        for note in sent
        if note["textDocument"]["uri"].endswith("/app.py")
        for change in note["contentChanges"]
    ]
    assert changes, f"nvim sent no didChange for app.py{session.diagnostics()}"
    assert all("range" in c for c in changes), f"full-text changes were sent: {changes}"
    text = "".join(c["text"] for c in changes)
    assert "return main()" in text and "😀" in text, f"edits missing from didChange: {changes}"
    assert session.lines("app.py")[1].startswith("# Ünïcödé"), "the buffer edit did not happen"


def test_indexing_progress_reached_the_client(session: Session) -> None:
    kinds = session.results.get("progress") or []
    assert "begin" in kinds and "end" in kinds, f"$/progress kinds seen: {kinds}"
    assert kinds.index("begin") < kinds.index("end"), f"$/progress out of order: {kinds}"
