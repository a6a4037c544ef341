"""End to end: `agent/run`, `agent/status`, `agent/cancel` and the proposal round trip with
a client that announces `experimental: {agentls: {proposals: true}}` (it gets
`agent/proposal` and answers `agent/resolveProposal`). The real server runs scripted
model transcripts (`replay:` set through didChangeConfiguration)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.agent.conftest import act, finish, plan
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

ROOT: Path
TMP: Path
SEEN: Seen
NOISE = ("status", "thought")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT, TMP, SEEN
    ROOT = make_workspace(tmp_path_factory.mktemp("ws"))
    TMP = tmp_path_factory.mktemp("scripts")
    SEEN = attach(lsp_client)
    caps = client_capabilities("visual-studio-code")
    caps.experimental = {"agentls": {"proposals": True}}
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=caps,
            root_uri=ROOT.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(autouse=True)
def fresh_files() -> None:
    (ROOT / "app.py").write_text(APP, "utf-8")
    SEEN.apply_mode = "disk"


async def start(
    client: LanguageClient, script: list[dict[str, Any]], goal: str = "Do it", **params: Any
) -> str:
    settings = params.pop("settings", {})
    configure(client, TMP, script, **settings)
    result = await request(client, "agent/run", {"goal": goal, **params})
    return str(result["runId"])


async def finished(run_id: str, timeout: float = 15.0) -> dict[str, Any]:
    return await wait_until(lambda: SEEN.finished(run_id), timeout, f"the end of {run_id}")  # type: ignore[no-any-return]


async def test_run_streams_events_in_order_and_reports_progress(client: LanguageClient) -> None:
    script = [
        plan("Read app.py"),
        act("read_file", {"path": "app.py"}),
        finish("main returns 1"),
        plan(),
    ]
    run_id = await start(client, script, goal="What does main return?", mode="read-only")
    end = await finished(run_id)
    answer = "main returns 1\n(Answered from app.py; no file changed.)"  # the facts after the words
    assert (end["status"], end["summary"]) == ("completed", answer)
    assert end["verification"]["verified"] is True and end["usage"]["promptTokens"] > 0
    events = SEEN.run_events(run_id, skip=NOISE)
    kinds = [e["kind"] for e in events]
    assert kinds == [
        "task",
        "task",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "task",
        "finished",
    ], kinds
    assert [e["status"] for e in events if e["kind"] == "task"] == ["pending", "running", "done"]
    assert events[0]["title"] == "Read app.py" and events[2]["name"] == "read_file"
    assert events[3]["ok"] is True and "return 1" in events[3]["output"]["content"]
    token = f"agentls-{run_id}"
    # the progress end and the `finished` event are separate notifications: wait for both
    await wait_until(lambda: isinstance((client.progress_reports.get(token) or [None])[-1], lsp.WorkDoneProgressEnd), 10, "the run's progress end")
    progress = client.progress_reports[token]
    assert isinstance(progress[0], lsp.WorkDoneProgressBegin) and "What does main return?" in (
        progress[0].message or ""
    )
    assert any(
        isinstance(p, lsp.WorkDoneProgressReport) and "read_file" in (p.message or "")
        for p in progress
    )
    assert isinstance(progress[-1], lsp.WorkDoneProgressEnd) and (
        progress[-1].message or ""
    ).startswith("completed")
    status = await request(client, "agent/status", {"runId": run_id})
    assert status == {
        "runId": run_id,
        "sessionId": status["sessionId"],  # a new session (tests/lsp/test_agent_sessions.py)
        "status": "completed",
        "goal": "What does main return?",
        "tasks": [{"title": "Read app.py", "status": "done"}],
        "steps": 2,
        "proposals": [],
        "summary": answer,
        "verification": end["verification"],
        "usage": end["usage"],
    }


async def test_status_while_running_then_cancel_stops_a_long_command_fast(
    client: LanguageClient,
) -> None:
    script = [
        plan("Wait"),
        act("run_command", {"command": "sleep 30", "timeout_s": 60}),
        finish(),
        plan(),
    ]
    run_id = await start(client, script, goal="Sleep", mode="full")
    await wait_until(
        lambda: any(e["kind"] == "tool_call" for e in SEEN.run_events(run_id)),
        what="the sleep to start",
    )
    status = await request(client, "agent/status", {"runId": run_id})
    assert (status["status"], status["tasks"], status["steps"]) == (
        "running",
        [{"title": "Wait", "status": "running"}],
        1,
    )
    began = time.monotonic()
    assert await request(client, "agent/cancel", {"runId": run_id}) == {
        "runId": run_id,
        "status": "cancelled",
    }
    assert time.monotonic() - began < 5
    assert (await finished(run_id))["status"] == "cancelled"
    assert (await request(client, "agent/status", {"runId": run_id}))["status"] == "cancelled"
    assert await request(client, "agent/cancel", {"runId": run_id}) == {
        "runId": run_id,
        "status": "cancelled",
    }


async def test_cancelling_the_progress_cancels_the_run(client: LanguageClient) -> None:
    script = [plan("Wait"), act("run_command", {"command": "sleep 30"}), finish(), plan()]
    run_id = await start(client, script, goal="Sleep", mode="full")
    await wait_until(lambda: any(e["kind"] == "tool_call" for e in SEEN.run_events(run_id)))
    token = f"agentls-{run_id}"
    assert client.progress_reports[token][0].cancellable is True
    client.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=token))
    assert (await finished(run_id))["status"] == "cancelled"


async def test_a_client_work_done_token_carries_the_progress(client: LanguageClient) -> None:
    client.progress_reports["client-token"] = []
    script = [plan("Answer"), finish("ok"), plan()]
    uri = (ROOT / "app.py").as_uri()
    context = {
        "uri": uri,
        "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 8}},
    }
    run_id = await start(
        client, script, mode="read-only", workDoneToken="client-token", context=context
    )
    assert (await finished(run_id))["status"] == "completed"
    # the end follows the `finished` event: wait for it (a client may read them apart)
    await wait_until(lambda: isinstance((client.progress_reports["client-token"] or [None])[-1], lsp.WorkDoneProgressEnd), 10, "the progress end")
    kinds = [type(v).__name__ for v in client.progress_reports["client-token"]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd", kinds
    assert f"agentls-{run_id}" not in client.progress_reports


async def test_cancel_after_the_end_reports_the_final_status(client: LanguageClient) -> None:
    run_id = await start(
        client, [plan("Answer"), finish("nothing to do"), plan()], mode="read-only"
    )
    assert (await finished(run_id))["status"] == "completed"
    assert await request(client, "agent/cancel", {"runId": run_id}) == {
        "runId": run_id,
        "status": "completed",
    }


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-9", "unknown model spec"),
        ("replay:/no/such/file.jsonl", "cannot read the replay file"),
    ],
)
async def test_a_model_error_fails_the_run_with_an_error_event(
    client: LanguageClient, spec: str, message: str
) -> None:
    configure(client, TMP, None, model=spec)
    run_id = (await request(client, "agent/run", {"goal": "anything"}))["runId"]
    assert (await finished(run_id))["status"] == "failed"
    errors = [e for e in SEEN.run_events(run_id) if e["kind"] == "error"]
    assert errors and message in errors[-1]["message"]


EDIT = {"path": "app.py", "old": "return 1", "new": "return 2"}
NEW_APP = APP.replace("return 1", "return 2")

# what the editor does before answering → (decision, comment, resolve status, tool_result status, file after)
DECISIONS = [
    ("editor-applied", "accepted", None, "applied", NEW_APP),
    ("editor-buffer", "accepted", None, "applied", APP),  # in its open buffer, not saved yet
    ("server-applies", "accepted", None, "applied", NEW_APP),
    ("user-rejects", "rejected", "use a constant instead", "rejected", APP),
    ("file-changed", "accepted", None, "stale", "def main():\n    return 3\n"),
]


@pytest.mark.parametrize(
    ("editor", "decision", "comment", "status", "after"), DECISIONS, ids=[d[0] for d in DECISIONS]
)
async def test_proposal_round_trip(
    client: LanguageClient, editor: str, decision: str, comment: str | None, status: str, after: str
) -> None:
    applied_before = len(SEEN.apply_edits)
    uri = (ROOT / "app.py").as_uri()
    if editor == "editor-buffer":
        item = lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=APP)
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
    run_id = await start(client, [plan("Edit"), act("edit_file", EDIT), finish(), plan()])
    proposal = await wait_until(
        lambda: next((p for p in SEEN.proposals if p["runId"] == run_id), None),
        what="agent/proposal",
    )
    assert set(proposal) == {"id", "runId", "uri", "title", "diff", "edit", "hunks"}
    assert proposal["uri"] == (ROOT / "app.py").as_uri() and "+    return 2" in proposal["diff"]
    version = proposal["edit"]["documentChanges"][0]["textDocument"]["version"]
    assert version == (1 if editor == "editor-buffer" else None)  # the open document's
    if editor == "editor-applied":
        (ROOT / "app.py").write_text(NEW_APP, "utf-8")
    elif editor == "editor-buffer":
        whole = lsp.TextDocumentContentChangeWholeDocument(text=NEW_APP)
        document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=2)
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[whole])
        )
    elif editor == "file-changed":
        (ROOT / "app.py").write_text(after, "utf-8")
    params = {
        "id": proposal["id"],
        "decision": decision,
        **({"comment": comment} if comment else {}),
    }
    assert await request(client, "agent/resolveProposal", params) == {
        "id": proposal["id"],
        "status": status,
    }
    end = await finished(run_id)
    assert end["status"] == "completed"
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    assert result["output"]["status"] == status
    if comment:
        assert "rejected" in result["output"]["message"] and comment in result["output"]["message"]
    assert (ROOT / "app.py").read_text("utf-8") == after
    sent_back = SEEN.apply_edits[applied_before:]
    assert len(sent_back) == (1 if editor == "server-applies" else 0)  # never twice, never blindly
    if sent_back:
        assert "changeAnnotations" not in sent_back[0]["edit"]
    listed = (await request(client, "agent/proposals", {"runId": run_id}))["proposals"]
    assert [(p["id"], p["status"]) for p in listed] == [(proposal["id"], status)]
    if editor == "editor-buffer":
        ident = lsp.TextDocumentIdentifier(uri=uri)
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=ident))


async def test_approval_never_only_proposes_and_the_editor_can_accept_later(
    client: LanguageClient,
) -> None:
    run_id = await start(
        client, [plan("Edit"), act("edit_file", EDIT), finish(), plan()], approval="never"
    )
    assert (await finished(run_id))["status"] == "completed"
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    assert result["output"]["status"] == "pending"
    assert (ROOT / "app.py").read_text("utf-8") == APP
    proposal = next(p for p in SEEN.proposals if p["runId"] == run_id)
    (ROOT / "app.py").write_text(NEW_APP, "utf-8")  # the editor applied it
    assert (
        await request(
            client, "agent/resolveProposal", {"id": proposal["id"], "decision": "accepted"}
        )
    )["status"] == "applied"


async def test_approval_auto_applies_through_the_editor_without_asking(
    client: LanguageClient,
) -> None:
    applied_before = len(SEEN.apply_edits)
    run_id = await start(
        client, [plan("Edit"), act("edit_file", EDIT), finish(), plan()], approval="auto"
    )
    assert (await finished(run_id))["status"] == "completed"
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    assert result["output"]["status"] == "applied"
    assert (ROOT / "app.py").read_text("utf-8") == NEW_APP
    assert not [p for p in SEEN.proposals if p["runId"] == run_id]  # nothing to decide
    assert len(SEEN.apply_edits) == applied_before + 1


BAD = [
    ("agent/run", {}, "goal"),
    ("agent/run", {"goal": "   "}, "goal"),
    ("agent/run", {"goal": 42}, "goal"),
    ("agent/run", {"goal": "x", "mode": "warp-speed"}, "mode"),
    ("agent/run", {"goal": "x", "approval": "sometimes"}, "approval"),
    ("agent/run", {"goal": "x", "mode": "ci", "approval": "auto"}, "approval"),
    ("agent/run", {"goal": "x", "maxSteps": 0}, "maxSteps"),
    ("agent/run", {"goal": "x", "context": {"uri": "file:///elsewhere/x.py"}}, "context.uri"),
    (
        "agent/run",
        {"goal": "x", "context": {"uri": "URI", "range": {"start": {"line": 2}}}},
        "context.range.start",
    ),
    ("agent/status", {"runId": "run-nope"}, "runId"),
    ("agent/status", {}, "runId"),
    ("agent/cancel", {"runId": "run-nope"}, "runId"),
    ("agent/resolveProposal", {"id": "prop-nope", "decision": "accepted"}, "id"),
    ("agent/resolveProposal", {"id": "prop-nope", "decision": "maybe"}, "decision"),
    ("agent/executeTool", {"input": {}}, "name"),
    ("agent/executeTool", {"name": "read_file", "mode": "god"}, "mode"),
]


@pytest.mark.parametrize(
    ("method", "params", "culprit"), BAD, ids=[f"{m}:{f}:{i}" for i, (m, _, f) in enumerate(BAD)]
)
async def test_bad_requests_get_invalid_params_naming_the_field(
    client: LanguageClient, method: str, params: dict[str, Any], culprit: str
) -> None:
    if params.get("context", {}).get("uri") == "URI":
        params = {**params, "context": {**params["context"], "uri": (ROOT / "app.py").as_uri()}}
    with pytest.raises(JsonRpcException) as caught:
        await request(client, method, params)
    assert caught.value.code == -32602, caught.value
    assert (caught.value.data or {}).get("field") == culprit, caught.value.data
    assert (await request(client, "agent/tools", {}))["tools"]  # and the server goes on
