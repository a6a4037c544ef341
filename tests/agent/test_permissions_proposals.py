"""Permission denials fed back, and proposals accepted or rejected with comments."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, RunEvent, RunSettings
from agentls.tools.proposals import ProposalStore
from agentls.workspace import Workspace

from .conftest import RunAgent, SpyModel, act, finish, plan, write_script


async def test_a_forbidden_tool_gets_a_permission_error_and_the_run_goes_on(
    run_agent: RunAgent, ws_root: Path
) -> None:
    script = [
        plan("t"),
        act("write_file", {"path": "new.txt", "content": "x"}),
        finish("could not write"),
        plan(),
    ]
    out = await run_agent(script, settings=RunSettings(mode="read-only", approval="never"))
    assert out.state.status == "completed"
    assert "write_file" not in out.acting()[0].tools and "read_file" in out.acting()[0].tools
    assert (
        "write_file, edit_file, replace_symbol, insert_symbol, add_docstring, rename_symbol, save_memory: it needs "
        "filesystemWrite"
        in out.acting()[0].messages[0]["content"]
    )
    tool_msg = out.acting()[1].messages[-1]
    assert tool_msg["role"] == "tool" and '"type": "permission"' in tool_msg["content"]
    assert (
        "write_file needs filesystemWrite, which mode 'read-only' does not grant"
        in tool_msg["content"]
    )
    assert out.of("tool_result")[0]["ok"] is False
    assert not (ws_root / "new.txt").exists()


def _resolver(store: ProposalStore, decision: str, comment: str | None) -> Any:
    def listener(event: dict[str, Any]) -> None:
        if event["action"] == "created":
            store.resolve(event["proposal"]["id"], decision, comment)  # type: ignore[arg-type]

    return listener


@pytest.mark.parametrize(
    ("decision", "comment", "on_disk", "told"),
    [
        (
            "accepted",
            None,
            "def main():\n    return 2\n",
            "Applied: src/app.py now contains the change.",
        ),
        (
            "rejected",
            "use snake_case",
            "def main():\n    return 1\n",
            "rejected by the user: use snake_case",
        ),
    ],
)
async def test_proposals_are_resolved_and_the_model_is_told(
    run_agent: RunAgent, ws_root: Path, decision: str, comment: str | None, on_disk: str, told: str
) -> None:
    workspace = Workspace(ws_root)
    store = ProposalStore(workspace)
    store.add_listener(_resolver(store, decision, comment))
    edit = act("edit_file", {"path": "src/app.py", "old": "return 1", "new": "return 2"})
    out = await run_agent(
        [plan("t"), edit, finish(), plan()],
        settings=RunSettings(approval="ask", proposal_timeout_s=5),
        workspace=workspace,
        proposals=store,
    )
    assert out.state.status == "completed"
    assert (ws_root / "src" / "app.py").read_text() == on_disk
    next_turn = out.acting()[1].messages[-1]
    assert next_turn["role"] == "tool" and told in next_turn["content"]
    proposal_id = out.state.proposals[0]
    actions = [
        (e["action"], e["proposal"]["id"], e["proposal"]["status"]) for e in out.of("proposal")
    ]
    status = "applied" if decision == "accepted" else "rejected"
    assert actions == [("created", proposal_id, "pending"), ("resolved", proposal_id, status)]
    kinds = out.kinds()
    assert kinds.index("tool_call") < kinds.index("proposal") < kinds.index("tool_result")


async def test_approval_never_leaves_the_proposal_pending(
    run_agent: RunAgent, ws_root: Path
) -> None:
    edit = act("write_file", {"path": "notes.txt", "content": "hi\n"})
    out = await run_agent(
        [plan("t"), edit, act("read_file", {"path": "notes.txt"}), finish(), plan()]
    )
    assert out.state.status == "completed"
    assert not (ws_root / "notes.txt").exists()
    proposal = out.agent.proposals.get(out.state.proposals[0])
    assert proposal is not None and proposal.status == "pending"
    assert '"source": "proposal"' in out.acting()[2].messages[-1]["content"]  # its reads see it


@pytest.mark.parametrize("decider", ["listener", "thread"])
async def test_a_decision_reaches_the_run_after_its_creation_on_the_loop(
    ws_root: Path, tmp_path: Path, decider: str
) -> None:
    """Decided while the store announces it (the CLI's reviewer) or from another thread
    while the tool waits (the editor): the run's listener hears created, then resolved, on
    the loop's thread, and the tool is told."""
    workspace = Workspace(ws_root)
    store = ProposalStore(workspace)

    def decide(event: dict[str, Any]) -> None:
        if event["action"] != "created":
            return
        resolve = lambda: store.resolve(event["proposal"]["id"], "rejected", "not now")  # noqa: E731
        if decider == "listener":
            resolve()
        else:
            threading.Thread(target=resolve).start()

    store.add_listener(decide)
    heard: list[tuple[str, str, int]] = []

    def on_event(event: RunEvent) -> None:
        if event.kind == "proposal":
            heard.append((event.data["action"], event.data["proposal"]["status"], threading.get_ident()))

    edit = act("edit_file", {"path": "src/app.py", "old": "return 1", "new": "return 2"})
    model = SpyModel(write_script(tmp_path / "script.jsonl", [plan("t"), edit, finish(), plan()]))
    agent = Agent(
        workspace=workspace,
        model=model,
        settings=RunSettings(approval="ask", proposal_timeout_s=3600),
        proposals=store,
        on_event=on_event,
    )
    state = await asyncio.wait_for(agent.run("Do the thing"), 60)
    loop_thread = threading.get_ident()
    assert state.status == "completed"
    assert heard == [("created", "pending", loop_thread), ("resolved", "rejected", loop_thread)]
    assert "rejected by the user: not now" in model.turns[2].messages[-1]["content"]
