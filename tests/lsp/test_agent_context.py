"""End to end over LSP: the project's rules and a goal's @-mentions (DESIGN §9) reach the
model's first request — `@problems` from a document open in the editor (with unsaved,
broken text) — and the run reports them as `rules` and `warning` events. The model is an
OpenAI-compatible endpoint on loopback (tests/llm/fake_openai.py), so the test reads
what the server really sent."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.llm.fake_openai import FakeOpenAIServer
from tests.lsp.agent_harness import Seen, attach, configure, make_workspace, request, wait_until
from tests.lsp.conftest import SERVER

ROOT: Path
SEEN: Seen
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
BROKEN = "def broken(:\n    pass\n"


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT, SEEN
    ROOT = make_workspace(tmp_path_factory.mktemp("ws"))
    (ROOT / "AGENTS.md").write_text("Rules over LSP: answer briefly.\n", "utf-8")
    SEEN = attach(lsp_client)
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=ROOT.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_rules_and_mentions_over_lsp(client: LanguageClient, tmp_path: Path) -> None:
    uri = (ROOT / "src" / "draft.py").as_uri()  # open in the editor, never saved
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, BROKEN)))
    finish = {"id": "call_1", "name": "finish", "arguments": '{"summary": "draft.py has a syntax error on line 1"}'}
    script = [{"content": "[]"}, {"tool_calls": [finish], "usage": USAGE}, {"content": "[]"}]
    with FakeOpenAIServer(script) as model:
        configure(client, tmp_path, model="openai:m", baseUrl=model.base_url, mode="read-only")
        goal = "What are the @problems? See @src/gone.py"
        context = {"uri": (ROOT / "app.py").as_uri(), "mentions": ["@src/util.py"]}  # picked in the editor
        run_id = (await request(client, "agent/run", {"goal": goal, "context": context}))["runId"]
        await wait_until(lambda: SEEN.finished(run_id), 20, "the end of the run")
    first = "\n".join(str(m.get("content")) for m in model.requests[0]["messages"])
    assert "Rules over LSP: answer briefly." in first
    assert "Problems in the open documents (`src/draft.py`):\n- src/draft.py:1:" in first
    assert "The file `src/util.py`" in first and "return x * 2" in first
    events = SEEN.run_events(run_id)
    (rules,) = [e for e in events if e["kind"] == "rules"]
    assert rules["files"] == [{"path": "AGENTS.md", "chars": len("Rules over LSP: answer briefly."), "cut": False}]
    (warning,) = [e for e in events if e["kind"] == "warning"]
    assert warning["source"] == "mention" and warning["subject"] == "@src/gone.py"
    assert len(model.requests) >= 2  # the run went on past the warning, to its acting turn


async def test_bad_context_mentions_are_invalid_params(client: LanguageClient) -> None:
    context = {"uri": (ROOT / "app.py").as_uri(), "mentions": "@diff"}
    with pytest.raises(JsonRpcInvalidParams, match="context.mentions"):
        await request(client, "agent/run", {"goal": "go", "mode": "read-only", "context": context})
