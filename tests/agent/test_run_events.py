"""The run state machine, RunState.to_dict() (the agent/status contract) and the events."""

from __future__ import annotations

import pytest

from agentls.agent.events import KINDS, RunEvent
from agentls.agent.run import InvalidTransition, RunState, Task

from .conftest import RunAgent, act, finish, plan


async def test_events_come_in_order_with_the_contract_kinds(run_agent: RunAgent) -> None:
    script = [
        plan("Read it"),
        act("read_file", {"path": "README.md"}, content="Let me look.", call_id="c1"),
        finish("read"),
        plan(),
    ]
    out = await run_agent(script, goal="Read the README")
    assert out.kinds() == [
        "status",  # started
        "status",  # planning turn
        "task",  # added
        "task",  # running
        "status",  # acting turn
        "thought",
        "tool_call",
        "tool_result",
        "status",
        "tool_call",  # finish
        "tool_result",
        "task",  # done
        "status",  # planning turn: no new tasks
        "finished",
    ]
    assert [e["phase"] for e in out.of("status")[1:]] == [
        "planning",
        "acting",
        "acting",
        "planning",
    ]
    assert [e["steps"] for e in out.of("status")[1:]] == [0, 1, 2, 2]
    events = [e.to_dict() for e in out.events if e.kind != "status"]
    assert all(e["runId"] == out.state.run_id for e in events)
    assert events[0] == {
        "runId": out.state.run_id,
        "kind": "task",
        "index": 0,
        "title": "Read it",
        "status": "pending",
    }
    assert events[2]["text"] == "Let me look."
    assert events[3] | {"runId": "-"} == {
        "runId": "-",
        "kind": "tool_call",
        "task": 0,
        "id": "c1",
        "name": "read_file",
        "arguments": {"path": "README.md"},
    }
    assert events[4]["ok"] is True and events[4]["output"]["content"].startswith("# demo")
    assert events[7]["status"] == "done" and events[7]["result"] == "read"
    assert events[-1]["status"] == "completed"
    assert events[-1]["summary"] == "read\nNot verified: the answer names nothing that the files read hold."
    usage = events[-1]["usage"]
    assert (usage["promptTokens"], usage["completionTokens"], usage["contextUsed"]) == (40, 20, 10)
    assert usage["modelSeconds"] >= 0 and usage["contextWindow"] > 0
    assert events[-1]["verification"] == {"verified": None, "checks": [
        {"kind": "answer", "passed": True, "detail": "the answer names nothing found in the files read"}],
        "unverified": "the answer names nothing that the files read hold"}  # fmt: skip


async def test_to_dict_has_exactly_the_contract_keys(run_agent: RunAgent) -> None:
    out = await run_agent([plan("a"), finish("ok"), plan()], goal="g")
    assert out.state.to_dict() == {
        "runId": out.state.run_id,
        "sessionId": None,  # a run started outside a session (start_run gives it one)
        "status": "completed",
        "goal": "g",
        "tasks": [{"title": "a", "status": "done"}],
        "steps": 1,
        "proposals": [],
        "summary": "ok\nNot verified: the goal asks neither for a change nor a question the run could check.",
        "verification": {
            "verified": None,
            "checks": [{"kind": "answer", "passed": True, "detail": "the answer names nothing found in the files read"}],
            "unverified": "the goal asks neither for a change nor a question the run could check",
        },
        "usage": out.state.usage_dict(),
    }
    assert set(out.state.usage_dict()) == {"promptTokens", "completionTokens", "modelSeconds", "contextWindow", "contextUsed"}


@pytest.mark.parametrize(
    ("start", "to", "ok"),
    [
        ("running", "completed", True),
        ("running", "failed", True),
        ("running", "cancelled", True),
        ("running", "budget_exhausted", True),
        ("completed", "failed", False),
        ("cancelled", "completed", False),
        ("failed", "running", False),
    ],
)
def test_run_transitions(start: str, to: str, ok: bool) -> None:
    state = RunState("r", "g", status=start)  # type: ignore[arg-type]
    if ok:
        state.end(to)  # type: ignore[arg-type]
        assert state.status == to and state.done
    else:
        with pytest.raises(InvalidTransition):
            state.end(to)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("start", "to", "ok"),
    [
        ("pending", "running", True),
        ("pending", "skipped", True),
        ("running", "done", True),
        ("running", "failed", True),
        ("pending", "done", False),
        ("done", "running", False),
        ("skipped", "running", False),
    ],
)
def test_task_transitions(start: str, to: str, ok: bool) -> None:
    task = Task("t", status=start)  # type: ignore[arg-type]
    if ok:
        task.move(to)  # type: ignore[arg-type]
        assert task.status == to
    else:
        with pytest.raises(InvalidTransition):
            task.move(to)  # type: ignore[arg-type]


def test_event_kinds_are_checked() -> None:
    assert {"task", "thought", "tool_call", "tool_result", "proposal", "error", "finished"} <= KINDS
    assert RunEvent("r", "error", {"message": "m"}).to_dict() == {
        "runId": "r",
        "kind": "error",
        "message": "m",
    }
    with pytest.raises(ValueError):
        RunEvent("r", "gossip")


async def test_a_broken_listener_does_not_stop_the_run(make_agent) -> None:  # type: ignore[no-untyped-def]
    agent, _, _ = make_agent([plan("a"), finish(), plan()])

    def broken(event: RunEvent) -> None:
        raise RuntimeError("listener bug")

    agent.on_event = broken
    state = await agent.run("g")
    assert state.status == "completed"


async def test_an_agent_runs_once(run_agent: RunAgent) -> None:
    out = await run_agent([plan()])
    with pytest.raises(RuntimeError, match="runs once"):
        await out.agent.run("again")


@pytest.mark.parametrize(
    ("mode", "shell_sandbox", "said"),
    [("ci", "none", True), ("full", "none", True), ("dev", "none", False), ("ci", "auto", False)],
)
async def test_a_run_says_once_that_its_shell_is_unconfined(
    run_agent: RunAgent, mode: str, shell_sandbox: str, said: bool
) -> None:
    """shellSandbox "none" is the user's choice, and every run that may run commands
    states it once on its progress stream (a status notice, also kept in the trace)."""
    from agentls.agent.context import RunSettings
    from agentls.settings import Settings

    source = Settings(shellSandbox=shell_sandbox, mode=mode)  # type: ignore[call-arg]
    settings = RunSettings.from_settings(source, approval="never")
    out = await run_agent([plan("Read it"), finish("read"), plan()], settings=settings)
    notices = [
        e["notice"] for e in out.of("status") if "WITHOUT an OS sandbox" in str(e.get("notice"))
    ]
    assert len(notices) == (1 if said else 0)


async def test_a_streaming_model_s_output_comes_as_stream_events_before_its_call(run_agent: RunAgent) -> None:
    """A model that streams (the embedded one) has its output shown as it is generated:
    `stream` events — the first piece at once, then batched — whose texts add up to the
    whole reply, all before the call they make is run. (A recorded `stream` replays it.)"""
    reply = '{"name": "finish", "arguments": {"summary": "done"}}'
    streamed = {**finish("done"), "stream": [reply[i : i + 5] for i in range(0, len(reply), 5)]}
    out = await run_agent([plan("t"), streamed, plan()])
    assert out.state.status == "completed"
    streams = out.of("stream")
    assert "".join(s["text"] for s in streams) == reply
    assert streams[0]["text"].startswith(reply[:5]) and streams[0]["phase"] == "acting"
    assert len(streams) <= len(streamed["stream"])  # batched, never more events than pieces
    assert out.kinds().index("stream") < out.kinds().index("tool_call")


async def test_usage_is_estimated_when_the_provider_counts_nothing(run_agent: RunAgent) -> None:
    none = {"prompt_tokens": 0, "completion_tokens": 0}
    script = [plan("a", usage=none), act("read_file", {"path": "README.md"}, usage=none), finish("ok"), plan(usage=none)]
    out = await run_agent(script, goal="Read README.md")
    usage = out.of("finished")[0]["usage"]
    assert usage["estimated"] is True and usage == out.state.usage_dict()
    # the last turn's prompt holds at least the system prompt: hundreds of tokens, not 0
    assert 100 < usage["contextUsed"] < usage["promptTokens"] and usage["completionTokens"] > 5
    counted = await run_agent([plan("a"), finish("ok"), plan()], goal="g")
    assert "estimated" not in counted.state.usage_dict()
