"""Cancellation: at once, from any thread, killing the running tool's processes, and
leaving nothing half-applied (agent.py, loop.py)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, RunSettings

from .conftest import SpyModel, act, finish, plan

MARKER = "30.4242"  # a sleep duration no other process uses


def sleeping_processes() -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if MARKER.encode() in cmdline:
            found.append(int(pid))
    return found


async def cancel_later(agent: Agent, delay: float, seen: dict[str, Any]) -> None:
    await asyncio.sleep(delay)
    agent.cancel()
    seen["status_at_once"] = agent.state.status
    seen["at"] = time.monotonic()


Make = Callable[..., tuple[Agent, SpyModel, list]]


async def test_cancel_mid_tool_kills_the_process_tree(make_agent: Make) -> None:
    script = [
        plan("t"),
        act("run_command", {"command": f"sleep {MARKER}", "timeout_s": 60}),
        finish(),
        plan(),
    ]
    agent, _, events = make_agent(script, RunSettings(mode="full", approval="never"))
    seen: dict[str, Any] = {}
    canceller = asyncio.create_task(cancel_later(agent, 0.5, seen))
    state = await agent.run("sleep a while")
    ended = time.monotonic()
    await canceller
    assert seen["status_at_once"] == "cancelled"
    assert state.status == "cancelled"
    assert ended - float(seen["at"]) < 5.0  # it did not wait for the 30 s command
    for _ in range(20):
        if not sleeping_processes():
            break
        time.sleep(0.1)
    assert sleeping_processes() == []
    kinds = [e.kind for e in events]
    assert "tool_call" in kinds and "tool_result" not in kinds and kinds[-1] == "finished"
    assert state.tasks[0].status == "skipped"


async def test_cancel_during_a_model_call(make_agent: Make) -> None:
    slow = plan("t")
    slow["delay_s"] = 30
    agent, model, events = make_agent([slow])
    seen: dict[str, Any] = {}
    canceller = asyncio.create_task(cancel_later(agent, 0.2, seen))
    state = await agent.run("think hard")
    await canceller
    assert state.status == "cancelled" and state.tasks == []
    assert events[-1].kind == "finished" and events[-1].data["status"] == "cancelled"


async def test_cancel_from_another_thread(make_agent: Make) -> None:
    slow = act("read_file", {"path": "README.md"}, delay_s=30)
    agent, _, _ = make_agent([plan("t"), slow])
    timer = threading.Timer(0.2, agent.cancel)
    timer.start()
    state = await agent.run("read")
    timer.join()
    assert state.status == "cancelled"
    assert state.tasks[0].status == "skipped"


async def test_cancel_before_the_run_starts(make_agent: Make) -> None:
    agent, model, events = make_agent([plan("t")])
    agent.cancel()
    state = await agent.run("never mind")
    assert state.status == "cancelled" and model.turns == []
    assert [e.kind for e in events] == ["status", "finished"]  # no model turn started


async def test_pending_proposals_are_rejected_on_cancel(make_agent: Make, ws_root: Path) -> None:
    write = act("write_file", {"path": "new.txt", "content": "x\n"})
    agent, _, events = make_agent(
        [plan("t"), write], RunSettings(approval="ask", proposal_timeout_s=30)
    )

    def cancel_once_proposed(event: Any) -> None:  # while write_file waits for a decision
        events.append(event)
        if event.kind == "proposal" and event.data["action"] == "created":
            agent.cancel()

    agent.on_event = cancel_once_proposed
    state = await agent.run("write")
    assert state.status == "cancelled"
    proposal = agent.proposals.get(state.proposals[0])
    assert proposal is not None
    assert (proposal.status, proposal.comment) == ("rejected", "the run was cancelled")
    assert not (ws_root / "new.txt").exists()
    kinds = [(e.kind, e.data.get("action")) for e in events]
    assert kinds[-2:] == [("proposal", "resolved"), ("finished", None)]


async def test_an_outside_cancellation_ends_the_run_and_propagates(make_agent: Make) -> None:
    slow = plan("t")
    slow["delay_s"] = 30
    agent, _, events = make_agent([slow])
    task = asyncio.create_task(agent.run("x"))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert agent.state.status == "cancelled"
    assert events[-1].kind == "finished"
