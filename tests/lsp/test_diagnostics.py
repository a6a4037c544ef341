"""End to end: `textDocument/publishDiagnostics` for the syntax errors of open documents
(DESIGN §5): one diagnostic per error region (tree-sitter ERROR and MISSING nodes), source
`agentls`, with the document's version; cleared when fixed or closed; a burst of changes
is parsed once; documents without errors are not published to."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.agent_harness import wait_until
from tests.lsp.conftest import SERVER

ROOT: Path
PUBLISHED: list[lsp.PublishDiagnosticsParams] = []
#: Longer than the server's debounce (0.3 s) with room for a loaded machine.
QUIET_S = 1.0

BROKEN_PY = """\
def total(prices):
    return 1 +* 2


class Cart:
    def add(self, price):
        self.items.append(price,,)


def fine():
    return 1
"""
FIXED_PY = BROKEN_PY.replace("1 +* 2", "1 + 2").replace("price,,)", "price)")
#: Three ERROR nodes, two inside the first: one region, one diagnostic.
NESTED_TS = "function f( {\n  return 1;\n}\nconst x = ;\n"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = tmp_path_factory.mktemp("diagnostics")
    (ROOT / "ok.py").write_text("def ok():\n    return 1\n", "utf-8")
    features = lsp_client.protocol.fm.features
    record = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def recording(params: lsp.PublishDiagnosticsParams) -> Any:
        PUBLISHED.append(params)
        return record(params)

    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = recording

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri(), initialization_options={"indexCache": False}))
    yield
    await lsp_client.shutdown_session()


def uri(name: str) -> str:
    return (ROOT / name).as_uri()


def open_doc(client: LanguageClient, name: str, text: str, language: str = "python", version: int = 1) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri(name), language_id=language, version=version, text=text)))


def replace_all(client: LanguageClient, name: str, text: str, version: int) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(name), version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def published(name: str) -> list[lsp.PublishDiagnosticsParams]:
    return [p for p in PUBLISHED if p.uri == uri(name)]


async def next_publish(name: str, after: int) -> lsp.PublishDiagnosticsParams:
    await wait_until(lambda: len(published(name)) > after, what=f"diagnostics of {name}")
    return published(name)[after]


def spans(params: lsp.PublishDiagnosticsParams) -> list[tuple[int, int, int, int]]:
    return [(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) for d in params.diagnostics]


async def test_one_diagnostic_per_error_region_then_cleared_when_fixed(client: LanguageClient) -> None:
    open_doc(client, "broken.py", BROKEN_PY)
    first = await next_publish("broken.py", 0)
    assert first.version == 1
    assert len(first.diagnostics) == 2, first.diagnostics
    assert {d.source for d in first.diagnostics} == {"agentls"}
    assert {d.severity for d in first.diagnostics} == {lsp.DiagnosticSeverity.Error}
    assert [d.range.start.line for d in first.diagnostics] == [1, 6]
    assert "return 1 +* 2" in first.diagnostics[0].message
    replace_all(client, "broken.py", FIXED_PY, 2)
    cleared = await next_publish("broken.py", 1)
    assert (cleared.version, list(cleared.diagnostics)) == (2, [])
    await asyncio.sleep(QUIET_S)
    assert len(published("broken.py")) == 2  # fixed stays fixed: nothing more to say


async def test_a_burst_of_changes_is_parsed_once_for_the_last_version(client: LanguageClient) -> None:
    open_doc(client, "burst.py", FIXED_PY)
    for version in range(2, 8):  # typing `x = (` one character at a time
        replace_all(client, "burst.py", FIXED_PY + "x = ("[: version - 2], version)
    result = await next_publish("burst.py", 0)
    await asyncio.sleep(QUIET_S)
    assert len(published("burst.py")) == 1, [p.version for p in published("burst.py")]
    assert result.version == 7
    assert len(result.diagnostics) == 1
    assert result.diagnostics[0].range.start.line == len(FIXED_PY.splitlines())


async def test_a_document_without_errors_is_not_published_to(client: LanguageClient) -> None:
    open_doc(client, "ok.py", (ROOT / "ok.py").read_text("utf-8"))
    await asyncio.sleep(QUIET_S)
    assert published("ok.py") == []


async def test_closing_clears_the_diagnostics(client: LanguageClient) -> None:
    open_doc(client, "closing.py", "def f(:\n    pass\n")
    shown = await next_publish("closing.py", 0)
    assert len(shown.diagnostics) == 1
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri("closing.py"))))
    cleared = await next_publish("closing.py", 1)
    assert list(cleared.diagnostics) == []


async def test_typescript_nested_errors_are_one_region_and_missing_tokens_are_named(client: LanguageClient) -> None:
    open_doc(client, "nested.ts", NESTED_TS, language="typescript")
    nested = await next_publish("nested.ts", 0)
    assert spans(nested) == [(0, 0, 3, 9)] and nested.diagnostics[0].source == "agentls"
    open_doc(client, "missing.ts", "export const v = Math.max(1, 2;\n", language="typescript")
    missing = await next_publish("missing.ts", 0)
    assert spans(missing) == [(0, 30, 0, 30)] and missing.diagnostics[0].message == "missing ')'"
