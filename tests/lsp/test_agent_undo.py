"""End to end: per-hunk review and `agent/undo` against the real server, driven by scripted
model transcripts. A proposal with several hunks accepted in part (the editor applying the
hunks itself, or the server sending only those hunks back), the model hearing what was left
out; the undo of an approve-auto run over several files (one created), after a server
restart, with a file the user changed in between (skipped, the user's text intact); and the
undo of an unknown run (a clear -32602 error)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.agent.conftest import act, finish, plan
from tests.lsp.agent_harness import (
    APP,
    Seen,
    apply_hunks_on_disk,
    apply_on_disk,
    attach,
    configure,
    make_workspace,
    request,
    wait_until,
)
from tests.lsp.conftest import SERVER

UTIL = "def helper(x):\n    return x * 2\n"
LONG = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(12))
AUTO_SCRIPT = [
    plan("Edit three files"),
    act("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}),
    act("edit_file", {"path": "src/util.py", "old": "x * 2", "new": "x * 3"}),
    act("write_file", {"path": "new.py", "content": "NEW = 1\n"}),
    finish("edited"),
    plan(),
]


@contextlib.asynccontextmanager
async def server(root: Path, tmp: Path) -> AsyncIterator[tuple[LanguageClient, Seen]]:
    """A fresh `agentls serve` on `root` whose client takes `agent/proposal`."""
    client = await ClientServerConfig(server_command=SERVER).start()
    assert isinstance(client, LanguageClient)
    seen = attach(client)
    caps = client_capabilities("visual-studio-code")
    caps.experimental = {"agentls": {"proposals": True}}
    try:
        await client.initialize_session(
            lsp.InitializeParams(
                capabilities=caps,
                root_uri=root.as_uri(),
                workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            )
        )
        yield client, seen
    finally:
        await client.shutdown_session()
        await client.stop()


async def run(client: LanguageClient, seen: Seen, tmp: Path, script: list[dict[str, Any]], **params: Any) -> str:
    configure(client, tmp, script)
    run_id = str((await request(client, "agent/run", {"goal": "Edit things", **params}))["runId"])
    end = await wait_until(lambda: seen.finished(run_id), 20, "the end of the run")
    assert end["status"] == "completed", seen.run_events(run_id)
    return run_id


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


@pytest.mark.parametrize("who_applies", ["editor", "server"])
async def test_a_proposal_accepted_in_part_applies_only_those_hunks_and_the_model_hears_it(
    root: Path, tmp_path: Path, who_applies: str
) -> None:
    (root / "long.py").write_text(LONG, "utf-8")
    new = LONG.replace("return 1\n", "return 100\n").replace("return 10\n", "return 1000\n")
    script = [plan("Edit"), act("write_file", {"path": "long.py", "content": new}), finish(), plan()]
    async with server(root, tmp_path) as (client, seen):
        configure(client, tmp_path, script)
        run_id = str((await request(client, "agent/run", {"goal": "Change f1 and f10"}))["runId"])
        proposal = await wait_until(lambda: next(iter(seen.proposals), None), what="agent/proposal")
        assert proposal["runId"] == run_id and [h["index"] for h in proposal["hunks"]] == [0, 1]
        assert all(h["uri"] == (root / "long.py").as_uri() for h in proposal["hunks"])
        assert "+    return 100" in proposal["hunks"][0]["diff"] and "1000" not in proposal["hunks"][0]["diff"]
        before = len(seen.apply_edits)
        if who_applies == "editor":
            apply_hunks_on_disk(proposal, [0])
        answer = await request(client, "agent/resolveProposal", {
            "id": proposal["id"], "decision": "accepted", "hunks": [0], "comment": "keep f10",
        })  # fmt: skip
        assert answer == {"id": proposal["id"], "status": "applied"}
        assert (root / "long.py").read_text("utf-8") == LONG.replace("return 1\n", "return 100\n")
        assert len(seen.apply_edits) - before == (1 if who_applies == "server" else 0)
        end = await wait_until(lambda: seen.finished(run_id), 20, "the end of the run")
        result = next(e for e in seen.run_events(run_id) if e["kind"] == "tool_result")
        message = result["output"]["message"]
        assert result["output"]["status"] == "applied" and "Applied in part" in message
        assert "left out hunk 1 of long.py" in message and "+    return 1000" in message
        assert "keep f10" in message and end["status"] in ("completed", "failed")
        listed = (await request(client, "agent/proposals", {"runId": run_id}))["proposals"]
        assert listed[0]["acceptedHunks"] == [0]


async def test_undo_of_an_auto_run_over_several_files_is_one_reviewable_proposal(
    root: Path, tmp_path: Path
) -> None:
    async with server(root, tmp_path) as (client, seen):
        run_id = await run(client, seen, tmp_path, AUTO_SCRIPT, approval="auto")
        assert (root / "app.py").read_text("utf-8") != APP and (root / "new.py").exists()
        assert not seen.proposals  # auto: nothing was presented
        trace = json.loads((root / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
        assert [p["status"] for p in trace["proposals"]] == ["applied"] * 3
        assert [c["name"] for c in trace["toolCalls"]][:3] == ["edit_file", "edit_file", "write_file"]
        assert all(isinstance(c["durationMs"], float) for c in trace["toolCalls"])
        result = await request(client, "agent/undo", {"runId": run_id})
        assert result["files"] == ["app.py", "src/util.py", "new.py"] and result["skipped"] == []
        proposal = await wait_until(lambda: next(iter(seen.proposals), None), what="the undo proposal")
        assert proposal["id"] == result["proposalId"] and len(proposal["hunks"]) == 3
        assert (root / "src" / "util.py").read_text("utf-8") == UTIL.replace("* 2", "* 3")  # not yet
        apply_on_disk(proposal["edit"])  # the editor applies the whole undo
        answer = await request(client, "agent/resolveProposal", {"id": proposal["id"], "decision": "accepted"})
        assert answer["status"] == "applied"
        assert (root / "app.py").read_text("utf-8") == APP
        assert (root / "src" / "util.py").read_text("utf-8") == UTIL
        assert not (root / "new.py").exists()


async def test_undo_after_a_restart_skips_a_file_the_user_changed_and_keeps_their_text(
    root: Path, tmp_path: Path
) -> None:
    async with server(root, tmp_path) as (client, seen):
        run_id = await run(client, seen, tmp_path, AUTO_SCRIPT, approval="auto")
    users = "def helper(x):\n    return x * 3  # the user's\n"
    (root / "src" / "util.py").write_text(users, "utf-8")
    async with server(root, tmp_path) as (client, seen):  # a new server process
        result = await request(client, "agent/undo", {"runId": run_id})
        assert result["files"] == ["app.py", "new.py"]
        assert result["skipped"] == [{
            "path": "src/util.py", "reason": f"it changed since run {run_id} last changed it; left as it is",
        }]  # fmt: skip
        proposal = await wait_until(lambda: next(iter(seen.proposals), None), what="the undo proposal")
        assert "src/util.py" not in proposal["diff"]
        answer = await request(client, "agent/resolveProposal", {"id": proposal["id"], "decision": "accepted"})
        assert answer["status"] == "applied"  # the server sent the edit back to the editor
        assert (root / "app.py").read_text("utf-8") == APP and not (root / "new.py").exists()
        assert (root / "src" / "util.py").read_text("utf-8") == users
        again = await request(client, "agent/undo", {"runId": run_id})
        assert again["proposalId"] is None and {s["path"] for s in again["skipped"]} == {
            "app.py", "src/util.py", "new.py"
        }


@pytest.mark.parametrize(
    ("params", "message"),
    [({"runId": "run-000000000000"}, "unknown run"), ({"runId": "../x"}, "is not a run id"), ({}, "runId")],
)
async def test_undo_of_an_unknown_run_is_a_clear_error(
    root: Path, tmp_path: Path, params: dict[str, Any], message: str
) -> None:
    async with server(root, tmp_path) as (client, _seen):
        with pytest.raises(JsonRpcException) as caught:
            await request(client, "agent/undo", params)
        assert caught.value.code == -32602 and message in str(caught.value)
