"""The run core (agent/launch): a request checked in one place, one run id through the
whole run (agent, trace, events, proposals), the front end's listener after the trace,
the workbench's index waited for, the end callbacks, and one-off tool calls."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import RunEvent
from agentls.agent.launch import (
    MAX_STEPS_LIMIT,
    RunRequest,
    RunRequestError,
    Workbench,
    start_run,
)
from agentls.settings import Settings
from agentls.tools.run_trace import RUNS_DIR
from agentls.workspace import Workspace

from .conftest import SpyModel, act, finish, plan, write_script

EDIT = {"path": "src/app.py", "old": "return 1", "new": "return 2"}

# (request fields, settings fields, the culprit) — None: the request is good
REQUESTS: list[tuple[dict[str, Any], dict[str, Any], str | None]] = [
    ({"goal": "x"}, {}, None),
    ({"goal": "  x  "}, {}, None),
    ({"goal": ""}, {}, "goal"),
    ({"goal": " \n "}, {}, "goal"),
    ({"goal": 42}, {}, "goal"),
    ({"goal": "x", "mode": "warp"}, {}, "mode"),
    ({"goal": "x", "approval": "sometimes"}, {}, "approval"),
    ({"goal": "x", "mode": "ci", "approval": "auto"}, {}, "approval"),  # asked, not followed
    ({"goal": "x", "approval": "auto"}, {"mode": "read-only"}, "approval"),
    ({"goal": "x", "approval": "auto"}, {"mode": "full"}, None),
    ({"goal": "x"}, {"mode": "read-only", "approval": "auto"}, None),  # the settings': the tools say
    ({"goal": "x", "max_steps": 0}, {}, "maxSteps"),
    ({"goal": "x", "max_steps": MAX_STEPS_LIMIT + 1}, {}, "maxSteps"),
    ({"goal": "x", "max_steps": True}, {}, "maxSteps"),
    ({"goal": "x", "max_steps": MAX_STEPS_LIMIT}, {}, None),
]


@pytest.mark.parametrize(("fields", "configured", "culprit"), REQUESTS)
def test_a_request_is_checked_in_one_place(
    fields: dict[str, Any], configured: dict[str, Any], culprit: str | None
) -> None:
    settings = Settings(**configured)
    request = RunRequest(**fields)
    if culprit is not None:
        with pytest.raises(RunRequestError) as caught:
            request.check(settings)
        assert caught.value.field == culprit and caught.value.message
        return
    run = request.check(settings)
    assert run.mode == (fields.get("mode") or settings.mode)
    assert run.approval == (fields.get("approval") or settings.approval)
    assert run.max_steps == (fields.get("max_steps") or settings.max_steps)
    assert run.source is settings and request.text == fields["goal"].strip()


@pytest.fixture
def bench(ws_root: Path) -> Workbench:
    return Workbench.open(Workspace(ws_root))


def model(tmp_path: Path, script: list[dict[str, Any]]) -> SpyModel:
    return SpyModel(write_script(tmp_path / "script.jsonl", script))


async def test_one_run_id_names_the_agent_the_trace_the_events_and_the_proposals(
    bench: Workbench, tmp_path: Path, ws_root: Path
) -> None:
    events: list[RunEvent] = []
    script = [plan("t"), act("edit_file", EDIT), finish(), plan()]
    handle = start_run(
        bench, RunRequest("Do the thing", approval="never"), settings=Settings(),
        model=model(tmp_path, script), listener=events.append, facts={"model": "replay:x"},
    )  # fmt: skip
    state = await asyncio.wait_for(handle.wait(), 60)
    run_id = handle.run_id
    assert state.status == "completed" and state.run_id == run_id == handle.agent.run_id
    assert run_id.startswith("run-")
    assert {e.run_id for e in events} == {run_id}
    (proposal,) = bench.proposals.list()
    assert proposal.run_id == run_id and state.proposals == [proposal.id]
    trace = json.loads((ws_root / RUNS_DIR / f"{run_id}.json").read_text("utf-8"))
    assert trace["runId"] == run_id and handle.trace.path.name == f"{run_id}.json"
    assert (trace["mode"], trace["approval"], trace["model"]) == ("dev", "never", "replay:x")
    assert [p["id"] for p in trace["proposals"]] == [proposal.id]


async def test_the_listener_hears_each_event_after_the_trace_and_the_end_is_said_once(
    bench: Workbench, tmp_path: Path
) -> None:
    order: list[tuple[str, int]] = []
    ended: list[str] = []
    spy = model(tmp_path, [plan("t"), finish(), plan()])
    closed: list[bool] = []
    spy.aclose = lambda: closed.append(True) or asyncio.sleep(0)  # type: ignore[method-assign]
    handle = start_run(bench, RunRequest("Do the thing"), settings=Settings(), model=spy, close_model=True)

    def listener(event: RunEvent) -> None:  # added after start_run: nothing is missed
        order.append((event.kind, len(handle.trace.data["events"])))

    handle.listen(listener)
    handle.on_end(lambda h: ended.append(h.state.status))
    await asyncio.wait_for(handle.wait(), 60)
    assert order[0][0] == "status" and order[-1][0] == "finished"
    assert [n for _, n in order] == list(range(1, len(order) + 1))  # the trace had it first
    assert ended == ["completed"] and closed == [True]


async def test_a_bad_request_starts_nothing(bench: Workbench, tmp_path: Path, ws_root: Path) -> None:
    with pytest.raises(RunRequestError) as caught:
        start_run(bench, RunRequest("x", max_steps=0), settings=Settings(), model=model(tmp_path, []))
    assert caught.value.field == "maxSteps"
    assert not (ws_root / RUNS_DIR).exists()


@pytest.mark.parametrize(
    ("mode", "approval", "followed"),
    [("dev", "auto", "auto"), ("read-only", "auto", "ask"), ("dev", "never", "never")],
)
async def test_the_handle_says_which_approval_its_proposals_follow(
    bench: Workbench, tmp_path: Path, mode: str, approval: str, followed: str
) -> None:
    settings = Settings(mode=mode, approval=approval)  # the settings': not refused
    handle = start_run(bench, RunRequest("x"), settings=settings, model=model(tmp_path, [plan(), plan()]))
    assert handle.approval == followed
    handle.cancel()
    await asyncio.wait_for(handle.wait(), 60)


async def test_the_run_waits_for_the_first_index_and_a_cancel_ends_the_wait(
    ws_root: Path, tmp_path: Path
) -> None:
    ready = threading.Event()
    bench = Workbench.open(Workspace(ws_root), ready=ready)
    spy = model(tmp_path, [plan("t"), finish(), plan()])
    first = start_run(bench, RunRequest("Do the thing"), settings=Settings(), model=spy)
    for _ in range(5):
        await asyncio.sleep(0.01)
    assert spy.turns == [] and first.state.status == "running"  # still waiting
    ready.set()
    assert (await asyncio.wait_for(first.wait(), 60)).status == "completed"
    ready.clear()
    second = start_run(bench, RunRequest("x"), settings=Settings(), model=model(tmp_path, [plan()]))
    await asyncio.sleep(0.01)
    second.cancel()
    await asyncio.wait_for(second.wait(), 10)  # not the 30 s index wait
    assert second.task is not None and second.task.done()


async def test_a_tool_call_gets_its_own_id_and_its_proposals_carry_it(bench: Workbench) -> None:
    ctx = bench.call_context(mode="dev", approval="never", settings=Settings())
    assert ctx.run_id is not None and ctx.run_id.startswith("tool-")
    result = await bench.call(ctx, "edit_file", EDIT)
    assert result.ok, result.error
    (proposal,) = bench.proposals.list(ctx.run_id)
    assert proposal.status == "pending"
    other = bench.call_context(mode="dev", approval="never", settings=Settings())
    assert other.run_id != ctx.run_id

