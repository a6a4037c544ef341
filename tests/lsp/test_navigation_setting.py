"""End to end: `navigation: false` in initializationOptions withdraws the navigation
features (not advertised, not answered) while the agent keeps its index and tools — for
editors that already run Pylance or the TypeScript server (DESIGN §5)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcMethodNotFound
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.agent_harness import request
from tests.lsp.conftest import SERVER, copy_sample

ROOT: Path


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = copy_sample(tmp_path_factory.mktemp("ws"))

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        return None

    result = await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=ROOT.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="sample")],
            initialization_options={"navigation": False, "mode": "read-only"},
        )
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_navigation_is_not_advertised(client: LanguageClient) -> None:
    caps: lsp.ServerCapabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.definition_provider is None and caps.references_provider is None
    assert caps.hover_provider is None and caps.document_symbol_provider is None
    assert caps.workspace_symbol_provider is None and caps.rename_provider is None
    assert caps.code_action_provider  # the agent's actions stay
    sync = caps.text_document_sync
    assert sync is not None  # documents are still synced: the agent reads open buffers


async def test_navigation_requests_are_not_answered(client: LanguageClient) -> None:
    params = lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=(ROOT / "app.py").as_uri()), position=lsp.Position(0, 0))
    with pytest.raises(JsonRpcMethodNotFound):
        await client.text_document_definition_async(params)


async def test_rename_is_not_answered_and_no_syntax_diagnostics_are_pushed(client: LanguageClient) -> None:
    doc = lsp.TextDocumentIdentifier(uri=(ROOT / "app.py").as_uri())
    with pytest.raises(JsonRpcMethodNotFound):
        await client.text_document_rename_async(lsp.RenameParams(text_document=doc, position=lsp.Position(0, 4), new_name="x"))
    uri = (ROOT / "broken.py").as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text="def f(:\n")))
    await asyncio.sleep(1.0)  # three times the diagnostics' debounce
    assert uri not in client.diagnostics


async def test_the_agent_keeps_its_index(client: LanguageClient) -> None:
    result = await request(
        client,
        "agent/executeTool",
        {"name": "find_symbol_definition", "input": {"symbol": "price_with_tax"}, "mode": "read-only"},
    )
    assert result["ok"] is True, result
    assert "src/shop/pricing.py" in str(result["output"])
