"""End to end over LSP: sessions (`agent/run {sessionId}`, `agent/sessions`, after a restart
too), usage in `agent/status` and the `finished` event, and plan review (`agent/plan`
answered by the client: edited, rejected, malformed, an error). The real server runs
against a scripted OpenAI-compatible endpoint, so the test sees every request the model
got."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.acp.harness import call, plan
from tests.llm.fake_openai import FakeOpenAIServer
from tests.lsp.agent_harness import (
    APP,
    Seen,
    attach,
    configure,
    make_workspace,
    request,
    wait_until,
)
from tests.lsp.conftest import SERVER
from tests.lsp.stdio_client import StdioClient

ROOT: Path
TMP: Path
SEEN: Seen
PLAN_ANSWER: Callable[[dict[str, Any]], Any] = lambda params: {"tasks": params["tasks"]}  # noqa: E731
ASKED: list[dict[str, Any]] = []


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT, TMP, SEEN
    ROOT = make_workspace(tmp_path_factory.mktemp("ws"))
    TMP = tmp_path_factory.mktemp("scripts")
    SEEN = attach(lsp_client)

    @lsp_client.feature("agent/plan")
    def on_plan(params: Any) -> Any:
        asked = {"runId": params.runId, "tasks": list(params.tasks)}
        ASKED.append(asked)
        return PLAN_ANSWER(asked)

    caps = client_capabilities("visual-studio-code")
    caps.experimental = {"agentls": {"proposals": True}}
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=caps, root_uri=ROOT.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="ws")],
        )
    )  # fmt: skip
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(autouse=True)
def fresh_files() -> None:
    (ROOT / "app.py").write_text(APP, "utf-8")


async def _run(client: LanguageClient, server: FakeOpenAIServer, **params: Any) -> dict[str, Any]:
    """Start a run against `server`; the `agent/run` answer and the `finished` event."""
    configure(client, TMP, model="openai:test-model", baseUrl=server.base_url)
    answer = await request(client, "agent/run", params)
    end = await wait_until(lambda: SEEN.finished(answer["runId"]), 20, f"the end of {answer['runId']}")
    return {**answer, "end": end}


def _texts(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in body["messages"])


async def test_a_follow_up_run_sees_the_first_and_sessions_list_it(client: LanguageClient) -> None:
    first = [plan("Read app.py"), call("read_file", {"path": "app.py"}, 1), call("finish", {"summary": "main returns 1"}, 2), plan()]
    with FakeOpenAIServer(first) as server:
        one = await _run(client, server, goal="What does main return?", mode="read-only")
        turns = len(server.requests)
    session_id = one["sessionId"]
    assert session_id.startswith("ses-")
    status = await request(client, "agent/status", {"runId": one["runId"]})
    assert status["sessionId"] == session_id and status["status"] == "completed"
    # usage, the same in agent/status and the finished event: every turn counted
    assert status["usage"] == one["end"]["usage"]
    usage = status["usage"]
    assert (usage["promptTokens"], usage["completionTokens"], usage["contextUsed"]) == (10 * turns, 5 * turns, 10)
    assert usage["contextWindow"] == 32_000 and 0 <= usage["modelSeconds"] < 60

    second = [plan("Answer"), call("finish", {"summary": "It returned 1, as said"}, 3), plan()]
    with FakeOpenAIServer(second) as server:
        two = await _run(client, server, goal="And what did you find?", sessionId=session_id, mode="read-only")
        seen = _texts(server.requests[0])
    assert two["sessionId"] == session_id and two["end"]["status"] == "completed"
    assert "The user asked: What does main return?" in seen and "main returns 1" in seen

    listed = (await request(client, "agent/sessions", {}))["sessions"]
    row = next(s for s in listed if s["sessionId"] == session_id)
    assert row["title"] == "What does main return?" and row["runs"] == 2 and row["updated"] > 0
    assert listed[0]["sessionId"] == session_id  # the most recently updated first

    # a restart: a new server process lists the same sessions from disk
    again = StdioClient(ROOT)
    try:
        again.result("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {},
                                    "workspaceFolders": [{"uri": ROOT.as_uri(), "name": "ws"}]})  # fmt: skip
        again.notify("initialized", {})
        restarted = again.result("agent/sessions", {})["sessions"]
    finally:
        again.close()
    assert next(s for s in restarted if s["sessionId"] == session_id)["runs"] == 2


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"goal": "x", "sessionId": "ses-0000000000000000"}, "no session"),
        ({"goal": "x", "sessionId": "../../etc/passwd"}, "malformed"),
        ({"goal": "x", "sessionId": 7}, "sessionId"),
    ],
)
async def test_an_unknown_session_is_invalid_params_naming_sessionId(client: LanguageClient, params: dict[str, Any], said: str) -> None:
    with pytest.raises(JsonRpcException) as caught:
        await request(client, "agent/run", params)
    assert caught.value.code == -32602 and said in str(caught.value)
    assert (caught.value.data or {}).get("field") == "sessionId"


async def test_an_edited_plan_is_what_the_model_works_on(client: LanguageClient) -> None:
    global PLAN_ANSWER
    PLAN_ANSWER = lambda asked: {"tasks": ["Tell what main returns"]}  # noqa: E731
    script = [plan("Read app.py", "Read README.md"), call("finish", {"summary": "main returns 1"}, 1), plan()]
    with FakeOpenAIServer(script) as server:
        run = await _run(client, server, goal="What does main return?", mode="read-only", approval="plan")
        requests = list(server.requests)
    assert ASKED[-1] == {"runId": run["runId"], "tasks": ["Read app.py", "Read README.md"]}
    status = await request(client, "agent/status", {"runId": run["runId"]})
    assert [t["title"] for t in status["tasks"]] == ["Tell what main returns"]
    acting = _texts(requests[1])
    assert "Tell what main returns" in acting and "Read README.md" not in acting
    plans = [e for e in SEEN.run_events(run["runId"]) if e["kind"] == "plan"]
    assert [(e["action"], e.get("tasks")) for e in plans] == [
        ("asked", ["Read app.py", "Read README.md"]), ("edited", ["Tell what main returns"])
    ]


async def test_a_rejected_plan_runs_no_tool_and_ends_cancelled(client: LanguageClient) -> None:
    global PLAN_ANSWER
    PLAN_ANSWER = lambda asked: {"decision": "rejected", "comment": "not like this"}  # noqa: E731
    script = [plan("Rewrite app.py"), call("write_file", {"path": "app.py", "content": "x = 1\n"}, 1)]
    with FakeOpenAIServer(script) as server:
        run = await _run(client, server, goal="Rewrite app.py", approval="plan")
        requests = list(server.requests)
    end = run["end"]
    assert end["status"] == "cancelled" and end["error"] == "the user rejected the plan: not like this"
    assert len(requests) == 1 and "tools" not in requests[0]  # the planning turn only
    kinds = [e["kind"] for e in SEEN.run_events(run["runId"])]
    assert "tool_call" not in kinds and "task" not in kinds
    assert (ROOT / "app.py").read_text("utf-8") == APP


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"tasks": "Read app.py"}, "'tasks' must be a list of strings"),
        ({"tasks": []}, "'tasks' is empty"),
        ({"decision": "maybe"}, "'decision' may only be"),
        (None, "the answer must be an object"),
    ],
)
async def test_a_bad_plan_answer_fails_the_run_with_the_reason(client: LanguageClient, answer: Any, said: str) -> None:
    global PLAN_ANSWER
    PLAN_ANSWER = lambda asked: answer  # noqa: E731
    with FakeOpenAIServer([plan("Read app.py"), call("read_file", {"path": "app.py"}, 1)]) as server:
        run = await _run(client, server, goal="Read app.py", mode="read-only", approval="plan")
        requests = list(server.requests)
    end = run["end"]
    assert end["status"] == "failed" and end["error"].startswith("plan review failed") and said in end["error"]
    assert len(requests) == 1  # nothing ran
    assert (await request(client, "agent/tools", {}))["tools"]  # and the server goes on


async def test_a_client_without_agent_plan_fails_the_run_not_the_server(tmp_path: Path) -> None:
    """An editor that does not know `agent/plan` answers it with an error (-32601)."""
    root = make_workspace(tmp_path / "ws")
    with FakeOpenAIServer([plan("Read app.py"), call("read_file", {"path": "app.py"}, 1)]) as server:
        settings = {"model": "openai:test-model", "baseUrl": server.base_url, "approval": "plan", "mode": "read-only"}
        editor = StdioClient(root, settings=settings)
        editor.plan_answer = None  # it answers agent/plan with -32601
        try:
            editor.result("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {},
                                         "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
                                         "initializationOptions": settings})  # fmt: skip
            editor.notify("initialized", {})
            run_id = editor.result("agent/run", {"goal": "Read app.py"})["runId"]
            end = editor.event(run_id, "finished")
            assert (editor.result("agent/status", {"runId": run_id}))["status"] == "failed"
        finally:
            editor.close()
        requests = list(server.requests)
    assert end["status"] == "failed" and "the client could not review the plan" in end["error"]
    assert "-32601" in end["error"] or "not found" in end["error"].lower()
    assert len(requests) == 1


async def test_one_run_at_a_time_in_a_session(client: LanguageClient) -> None:
    slow = [plan("Wait"), {**call("finish", {"summary": "late"}, 1), "delay": 8}]
    with FakeOpenAIServer(slow) as server:
        configure(client, TMP, model="openai:test-model", baseUrl=server.base_url)
        first = await request(client, "agent/run", {"goal": "Wait", "mode": "read-only"})
        await wait_until(lambda: len(server.requests) >= 2, 10, "the slow turn")
        with pytest.raises(JsonRpcException) as caught:
            await request(client, "agent/run", {"goal": "Again", "sessionId": first["sessionId"]})
        assert caught.value.code == -32602 and (caught.value.data or {}).get("runId") == first["runId"]
        assert (caught.value.data or {}).get("field") == "sessionId"
        await request(client, "agent/cancel", {"runId": first["runId"]})
    assert (await request(client, "agent/status", {"runId": first["runId"]}))["status"] == "cancelled"
