"""End to end over LSP (DESIGN §9): edit before accept — the editor applies the user's
version of a proposal and answers `agent/resolveProposal` with `content`; the server checks
the document holds it (else `stale`), never sends its own text back, tells the model how the
applied text differs (read from the model's next request, a fake OpenAI-compatible
endpoint), and `agentls undo` puts the original back — and auto-approve rules: a proposal
whose files match `autoApprove.paths` is applied without being presented, `autoApproveDeny`
wins, and an untrusted workspace ignores the rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.agent.conftest import act, finish, plan
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

ROOT: Path
TMP: Path
SEEN: Seen
UTIL = "def helper(x):\n    return x * 2\n"
PROPOSED = APP.replace("return 1", "return 2")
USERS = "def main():\n    # the user's version\n    return 20\n"


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
    (ROOT / "src" / "util.py").write_text(UTIL, "utf-8")
    SEEN.apply_mode = "disk"


def _call(name: str, arguments: dict[str, Any], n: int) -> dict[str, Any]:
    return {"tool_calls": [{"id": f"call_{n}", "name": name, "arguments": json.dumps(arguments)}]}


EDIT_SCRIPT = [
    {"content": '["Make main return 2"]'},
    _call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
    _call("finish", {"summary": "main returns what the user chose"}, 2),
    {"content": "[]"},
]


async def _proposal_of(run_id: str) -> dict[str, Any]:
    return await wait_until(  # type: ignore[no-any-return]
        lambda: next((p for p in SEEN.proposals if p["runId"] == run_id), None), 15, "agent/proposal"
    )


def _tool_message(requests: list[dict[str, Any]]) -> str:
    """The content of the first tool message the model was sent."""
    for body in requests:
        for message in body["messages"]:
            if message["role"] == "tool":
                return str(message["content"])
    raise AssertionError("the model was never sent a tool result")


@pytest.mark.parametrize("where", ["disk", "buffer"])
async def test_the_users_version_is_kept_the_model_hears_the_difference_and_undo_restores(
    client: LanguageClient, where: str
) -> None:
    uri = (ROOT / "app.py").as_uri()
    ident = lsp.VersionedTextDocumentIdentifier(uri=uri, version=2)
    if where == "buffer":
        item = lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=APP)
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
    with FakeOpenAIServer(EDIT_SCRIPT) as model:
        configure(client, TMP, None, model="openai:m", baseUrl=model.base_url)
        run_id = str((await request(client, "agent/run", {"goal": "Make main return 2"}))["runId"])
        proposal = await _proposal_of(run_id)
        assert "+    return 2" in proposal["diff"]
        before = len(SEEN.apply_edits)
        if where == "disk":
            (ROOT / "app.py").write_text(USERS, "utf-8")  # the editor applied what the user left
        else:
            change = lsp.TextDocumentContentChangeWholeDocument(text=USERS)
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(text_document=ident, content_changes=[change])
            )
        answer = await request(client, "agent/resolveProposal", {
            "id": proposal["id"], "decision": "accepted", "content": {uri: USERS},
        })  # fmt: skip
        assert answer == {"id": proposal["id"], "status": "applied"}
        end = await wait_until(lambda: SEEN.finished(run_id), 20, "the end of the run")
        told = _tool_message(model.requests)
    assert len(SEEN.apply_edits) == before  # its own proposal was never sent back
    on_disk = (ROOT / "app.py").read_text("utf-8")
    assert on_disk == (USERS if where == "disk" else APP)  # a buffer's text is the editor's to save
    assert end["status"] in ("completed", "failed"), end
    assert "Applied with the user's changes" in told and "--- proposed/app.py" in told
    assert "-    return 2" in told and "+    return 20" in told and "+    # the user's version" in told
    listed = (await request(client, "agent/proposals", {"runId": run_id}))["proposals"]
    assert listed[0]["status"] == "applied" and listed[0]["edited"] == ["app.py"]
    trace = json.loads((ROOT / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
    assert trace["proposals"][0]["edited"] == ["app.py"]
    if where == "buffer":
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
        return
    undo = subprocess.run(
        [sys.executable, "-m", "agentls.cli", "undo", run_id, "--workspace", str(ROOT), "--approve", "auto"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert undo.returncode == 0, undo.stderr
    assert (ROOT / "app.py").read_text("utf-8") == APP  # the text from before the proposal


async def test_content_the_document_does_not_hold_is_stale_and_nothing_is_written(
    client: LanguageClient,
) -> None:
    configure(client, TMP, [plan("Edit"), act("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}), finish(), plan()])
    run_id = str((await request(client, "agent/run", {"goal": "Make main return 2"}))["runId"])
    proposal = await _proposal_of(run_id)
    before = len(SEEN.apply_edits)
    uri = (ROOT / "app.py").as_uri()  # the editor says it applied USERS but did not
    answer = await request(client, "agent/resolveProposal", {"id": proposal["id"], "decision": "accepted", "content": {uri: USERS}})
    assert answer == {"id": proposal["id"], "status": "stale"}
    await wait_until(lambda: SEEN.finished(run_id), 20, "the end of the run")
    assert (ROOT / "app.py").read_text("utf-8") == APP and len(SEEN.apply_edits) == before
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    assert "stale" in result["output"]["message"] and "does not hold the text" in result["output"]["message"]


def _bad_contents(root: Path) -> list[tuple[Any, str]]:
    app = (root / "app.py").as_uri()
    return [
        (["text"], "must be an object"),
        ({}, "must be an object"),
        ({app: 12}, "must be a string"),
        ({(root / "src" / "util.py").as_uri(): "x"}, "does not change src/util.py"),
        ({"file:///etc/passwd": "x"}, "outside the workspace"),
        ({"untitled:Untitled-1": "x"}, "not a file URI"),
    ]


async def test_bad_content_is_invalid_params_naming_content(client: LanguageClient) -> None:
    configure(client, TMP, [plan("Edit"), act("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}), finish(), plan()], approval="never")
    run_id = str((await request(client, "agent/run", {"goal": "Make main return 2"}))["runId"])
    await wait_until(lambda: SEEN.finished(run_id), 20, "the end of the run")
    proposal = await _proposal_of(run_id)  # approval never: it stays pending
    app = (ROOT / "app.py").as_uri()
    accepted = {"id": proposal["id"], "decision": "accepted"}
    cases = [({**accepted, "content": content}, said) for content, said in _bad_contents(ROOT)]
    cases += [
        ({**accepted, "content": {app: PROPOSED}, "hunks": [0]}, "either 'hunks' or 'content'"),
        ({**accepted, "decision": "rejected", "content": {app: APP}}, "with the decision 'accepted' only"),
    ]
    for params, said in cases:
        with pytest.raises(JsonRpcException) as caught:
            await request(client, "agent/resolveProposal", params)
        assert caught.value.code == -32602 and said in str(caught.value), (params, caught.value)
        assert (caught.value.data or {}).get("field") == "content"
    assert (ROOT / "app.py").read_text("utf-8") == APP
    (ROOT / "app.py").write_text(PROPOSED, "utf-8")  # content equal to the proposal: a plain accept
    answer = await request(client, "agent/resolveProposal", {"id": proposal["id"], "decision": "accepted", "content": {app: PROPOSED}})
    assert answer["status"] == "applied"
    listed = (await request(client, "agent/proposals", {"runId": run_id}))["proposals"]
    assert listed[0]["edited"] == []


UTIL_EDIT = act("edit_file", {"path": "src/util.py", "old": "x * 2", "new": "x * 3"})


@pytest.mark.parametrize(
    ("settings", "asked"),
    [
        ({"autoApprove": {"paths": ["src/**"]}}, False),
        ({"autoApprove": {"tools": ["edit_file"]}}, False),
        ({"autoApprove": {"paths": ["src/**"]}, "autoApproveDeny": {"paths": ["*/util.py"]}}, True),
        ({"autoApprove": {"paths": ["docs/**"]}}, True),
        ({"autoApprove": {"paths": ["src/**"]}, "workspaceTrusted": False}, True),
    ],
    ids=["paths", "tools", "deny-wins", "no-match", "untrusted"],
)
async def test_auto_approve_rules_apply_a_matching_proposal_without_presenting_it(
    client: LanguageClient, settings: dict[str, Any], asked: bool
) -> None:
    configure(client, TMP, [plan("Edit util"), UTIL_EDIT, finish(), plan()], **settings)
    run_id = str((await request(client, "agent/run", {"goal": "Triple it"}))["runId"])
    if asked:
        proposal = await _proposal_of(run_id)
        assert "autoApproved" not in proposal
        await request(client, "agent/resolveProposal", {"id": proposal["id"], "decision": "rejected"})
    end = await wait_until(lambda: SEEN.finished(run_id), 20, "the end of the run")
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    events = [e["proposal"] for e in SEEN.run_events(run_id) if e["kind"] == "proposal"]
    if asked:
        assert result["output"]["status"] == "rejected" and result["output"]["auto_approved"] is None
        assert (ROOT / "src" / "util.py").read_text("utf-8") == UTIL
        assert all(p["autoApproved"] is None for p in events)
        return
    assert end["status"] == "completed", end
    assert not [p for p in SEEN.proposals if p["runId"] == run_id]  # nothing to review
    assert result["output"]["status"] == "applied"
    rule = result["output"]["auto_approved"]
    assert rule.startswith("autoApprove.") and "without asking" in result["output"]["message"]
    assert [p["autoApproved"] for p in events] == [rule, rule]  # created and resolved, marked
    assert (ROOT / "src" / "util.py").read_text("utf-8") == UTIL.replace("* 2", "* 3")
    audit = [json.loads(line) for line in (ROOT / ".agentls" / "audit.jsonl").read_text("utf-8").splitlines()]
    logged = [a for a in audit if a["run_id"] == run_id and a["tool"] == "edit_file"]
    assert logged[0]["permission"]["decision"] == "auto-approved"
    assert logged[0]["permission"]["autoApproved"] == [rule]
