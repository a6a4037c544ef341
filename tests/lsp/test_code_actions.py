"""`textDocument/codeAction`: the agent actions offered on a selection, each a command that
starts a run with the file and the selection as context."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER, copy_sample

ROOT: Path


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = copy_sample(tmp_path_factory.mktemp("actions"))

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        return None
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def _params(only: list[str] | None = None, diagnostics: list[dict] | None = None, uri: str | None = None) -> dict:
    context: dict = {"diagnostics": diagnostics or []}
    if only:
        context["only"] = only
    return {
        "textDocument": {"uri": uri or (ROOT / "src/shop/pricing.py").as_uri()},
        "range": {"start": {"line": 5, "character": 0}, "end": {"line": 7, "character": 10}},
        "context": context,
    }


async def _actions(client: LanguageClient, params: dict) -> list[dict] | None:
    """The raw result: lsprotocol's client-side converter reads every `Command | CodeAction`
    item as a Command, so the typed API cannot be used to check code actions."""
    msg_id = f"raw-actions-{id(params)}"
    future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": lsp.TEXT_DOCUMENT_CODE_ACTION, "params": params})
    return await asyncio.wait_for(future, 10)  # type: ignore[return-value]


async def test_four_agent_actions_carry_the_selection(client: LanguageClient) -> None:
    actions = await _actions(client, _params())
    assert actions is not None
    assert [a["title"] for a in actions] == ["Agent: Explain this code", "Agent: Fix this code", "Agent: Write tests for this code", "Agent: Refactor this code"]
    assert [a.get("kind") for a in actions] == [None, "quickfix", "source", "refactor.rewrite"]
    for action in actions:
        assert action["command"]["command"] == "agentls.agent.run"
        (argument,) = action["command"]["arguments"]
        assert "src/shop/pricing.py (lines 6-8)" in argument["goal"]
        assert argument["context"]["uri"].endswith("src/shop/pricing.py")
        assert argument["context"]["range"]["end"] == {"line": 7, "character": 10}


async def test_only_filters_by_kind_and_diagnostics_reach_the_fix_goal(client: LanguageClient) -> None:
    diag = {"range": {"start": {"line": 6, "character": 0}, "end": {"line": 6, "character": 4}}, "message": "undefined name 'amout'"}
    actions = await _actions(client, _params(only=["quickfix"], diagnostics=[diag]))
    assert actions is not None and [a["title"] for a in actions] == ["Agent: Fix this code"]
    assert "undefined name 'amout'" in actions[0]["command"]["arguments"][0]["goal"]
    refactors = await _actions(client, _params(only=["refactor"]))
    assert refactors is not None and [a["title"] for a in refactors] == ["Agent: Refactor this code"]


async def test_no_actions_outside_the_workspace(client: LanguageClient) -> None:
    assert await _actions(client, _params(uri="file:///elsewhere/x.py")) is None
