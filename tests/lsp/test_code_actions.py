"""`textDocument/codeAction`: the agent actions offered on a selection, each a command that
starts a run with the file and the selection as context."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from agentls.lsp.params import plain
from tests.llm.fake_openai import FakeOpenAIServer
from tests.lsp.agent_harness import configure, request, wait_until
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
    assert [a.get("kind") for a in actions] == [None, "quickfix", None, "refactor.rewrite"]
    for action in actions:
        assert action["command"]["command"] == "agentls.agent.run"
        (argument,) = action["command"]["arguments"]
        assert "src/shop/pricing.py (lines 6-8)" in argument["goal"]
        assert argument["context"]["uri"].endswith("src/shop/pricing.py")
        assert argument["context"]["range"]["end"] == {"line": 7, "character": 10}


async def test_only_filters_by_kind_and_diagnostics_reach_the_fix_goal(client: LanguageClient) -> None:
    diag = {"range": {"start": {"line": 6, "character": 0}, "end": {"line": 6, "character": 4}}, "message": "undefined name 'amout'"}
    actions = await _actions(client, _params(only=["quickfix"], diagnostics=[diag]))
    assert actions is not None and [a["title"] for a in actions] == ["Agent: Fix this", "Agent: Fix this code"]
    assert all("undefined name 'amout'" in a["command"]["arguments"][0]["goal"] for a in actions)
    refactors = await _actions(client, _params(only=["refactor"]))
    assert refactors is not None and [a["title"] for a in refactors] == ["Agent: Refactor this code"]


async def test_no_actions_outside_the_workspace(client: LanguageClient) -> None:
    assert await _actions(client, _params(uri="file:///elsewhere/x.py")) is None


SYNTAX = {"range": {"start": {"line": 6, "character": 4}, "end": {"line": 7, "character": 2}}, "message": "syntax error near 'x +'", "severity": 1, "source": "agentls"}
OTHER = {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}}, "message": "unused import", "source": "pyflakes"}


async def test_fix_this_on_a_diagnostic_carries_it_in_the_action_and_the_run_context(client: LanguageClient) -> None:
    actions = await _actions(client, _params(diagnostics=[SYNTAX]))
    assert actions is not None
    fix = actions[0]
    assert (fix["title"], fix["kind"], fix["diagnostics"]) == ("Agent: Fix this", "quickfix", [SYNTAX])
    (argument,) = fix["command"]["arguments"]
    assert argument["goal"].startswith("Fix this problem in src/shop/pricing.py at line 7: syntax error near 'x +' (agentls).")
    assert argument["context"]["diagnostics"] == [SYNTAX]
    assert argument["context"]["range"] == {"start": {"line": 6, "character": 0}, "end": {"line": 8, "character": 0}}  # its whole lines
    assert [a["title"] for a in actions[1:]] == ["Agent: Explain this code", "Agent: Fix this code", "Agent: Write tests for this code", "Agent: Refactor this code"]


async def test_one_fix_this_per_diagnostic_named_by_its_message(client: LanguageClient) -> None:
    actions = await _actions(client, _params(diagnostics=[SYNTAX, OTHER]))
    assert actions is not None
    fixes = [a for a in actions if a["title"].startswith("Agent: Fix this:")]
    assert [a["title"] for a in fixes] == ["Agent: Fix this: syntax error near 'x +'", "Agent: Fix this: unused import"]
    assert [a["diagnostics"] for a in fixes] == [[SYNTAX], [OTHER]]
    assert await _actions(client, _params(only=["refactor"], diagnostics=[SYNTAX])) == [a for a in actions if a["title"] == "Agent: Refactor this code"]


async def test_the_fix_this_run_tells_the_model_the_diagnostic(client: LanguageClient, tmp_path: Path) -> None:
    """The command the action carries, run as the editor runs it: the model's first turn
    names the file, the diagnostic's lines and the diagnostic."""
    actions = await _actions(client, _params(diagnostics=[SYNTAX]))
    assert actions is not None
    (argument,) = actions[0]["command"]["arguments"]
    with FakeOpenAIServer([{"content": "[]"}]) as model:
        configure(client, tmp_path, model="openai:fixer", baseUrl=model.base_url, mode="read-only")
        started = plain(await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="agentls.agent.run", arguments=[argument])))
        await wait_until(lambda: model.requests, what="the model's first turn")
    assert set(started) == {"runId", "sessionId"}  # the command answers as agent/run does
    said = "\n".join(str(m.get("content")) for m in model.requests[0]["messages"])
    assert "The editor reports these problems there" in said
    assert "- lines 7–8 (0-based 6:4–7:2), agentls: syntax error near 'x +'" in said, said


@pytest.mark.parametrize(
    ("diagnostics", "field"),
    [({"x": 1}, "context.diagnostics"), ([{"range": SYNTAX["range"]}], "message"), ([{"message": "m", "range": {"start": {"line": 1}}}], "context.diagnostics[0].range.start")],
)
async def test_bad_context_diagnostics_are_invalid_params(client: LanguageClient, diagnostics: object, field: str) -> None:
    context = {"uri": (ROOT / "app.py").as_uri(), "diagnostics": diagnostics}
    with pytest.raises(JsonRpcInvalidParams, match=re.escape(field)):
        await request(client, "agent/run", {"goal": "fix", "mode": "read-only", "context": context})
