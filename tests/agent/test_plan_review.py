"""Plan review in the core (DESIGN §9): the answers a front end may give (`PlanAnswer`), what
the run does with each through the real loop (edited tasks are the run's, a rejection ends
it cancelled before any tool, a hook that fails or is missing fails it, a slow one is
bounded, a cancel stops the wait), the approval rule for `plan`, and `start_run` refusing
`plan` without a hook."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.context import RunSettings
from agentls.agent.launch import RunRequest, RunRequestError, Workbench, start_run
from agentls.agent.plan_review import MAX_TASKS, PlanAnswer, PlanReviewError
from agentls.settings import Settings
from agentls.tools.permissions import approval_for
from agentls.workspace import Workspace
from tests.agent.conftest import RunAgent, act, finish, plan

PLAN = RunSettings(approval="plan", mode="read-only")


@pytest.mark.parametrize(
    ("raw", "tasks", "comment"),
    [
        ({"tasks": ["a", " b  c "]}, ("a", "b c"), None),
        ({"tasks": ["a", "", "  "]}, ("a",), None),
        ({"decision": "rejected"}, None, None),
        ({"decision": "rejected", "comment": " no "}, None, "no"),
        ({"decision": "rejected", "tasks": ["a"]}, None, None),  # the decision wins
    ],
)
def test_plan_answers_that_are_read(raw: Any, tasks: tuple[str, ...] | None, comment: str | None) -> None:
    answer = PlanAnswer.from_json(raw)
    assert (answer.tasks, answer.comment, answer.rejected) == (tasks, comment, tasks is None)


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (None, "must be an object"),
        ([], "must be an object"),
        ({}, "neither 'tasks' nor 'decision'"),
        ({"tasks": "a"}, "must be a list of strings"),
        ({"tasks": ["a", 1]}, "must be a list of strings"),
        ({"tasks": []}, "is empty"),
        ({"tasks": ["x"] * (MAX_TASKS + 1)}, f"at most {MAX_TASKS}"),
        ({"tasks": ["x" * 501]}, "longer than"),
        ({"decision": "accepted"}, "may only be"),
        ({"decision": "rejected", "comment": 3}, "'comment' must be a string"),
    ],
)
def test_malformed_plan_answers_are_errors(raw: Any, said: str) -> None:
    with pytest.raises(PlanReviewError, match=said):
        PlanAnswer.from_json(raw)


def test_plan_follows_ask_and_is_no_change_of_approval() -> None:
    grant = approval_for("read-only", "plan")
    assert (grant.approval, grant.plan, grant.changed) == ("ask", True, False)
    alone = approval_for("dev", "plan", interactive=False)  # no one to ask: nothing to show it to
    assert (alone.approval, alone.plan, alone.changed) == ("never", False, True)


async def test_the_edited_plan_is_the_run_and_what_the_model_is_told(run_agent: RunAgent) -> None:
    asked: list[tuple[str, list[str]]] = []

    async def review(run_id: str, tasks: list[str]) -> PlanAnswer:
        asked.append((run_id, tasks))
        return PlanAnswer.approve(["Read README.md", "Say hello"])

    script = [plan("Read src/app.py"), finish("read"), plan(), finish("hello"), plan()]
    out = await run_agent(script, goal="Greet", settings=PLAN, plan_review=review)
    assert asked == [(out.state.run_id, ["Read src/app.py"])]
    assert [t.title for t in out.state.tasks] == ["Read README.md", "Say hello"]
    acting = out.acting()
    assert "Read README.md" in acting[0].text() and "Say hello" in acting[1].text()
    assert "Read src/app.py" not in "\n".join(t.text() for t in acting)
    assert [(p["action"], p.get("tasks")) for p in out.of("plan")] == [
        ("asked", ["Read src/app.py"]), ("edited", ["Read README.md", "Say hello"])
    ]
    assert out.agent.tool_context.approval == "ask"  # the run goes on as ask


async def test_a_rejected_plan_ends_the_run_cancelled_before_any_tool(run_agent: RunAgent) -> None:
    async def review(run_id: str, tasks: list[str]) -> PlanAnswer:
        return PlanAnswer.reject("wrong file")

    out = await run_agent([plan("Edit src/app.py"), act("read_file", {"path": "src/app.py"})],
                          settings=PLAN, plan_review=review)  # fmt: skip
    assert out.state.status == "cancelled" and out.state.error == "the user rejected the plan: wrong file"
    assert out.acting() == [] and "tool_call" not in out.kinds() and out.state.tasks == []
    assert out.kinds()[-1] == "finished"


@pytest.mark.parametrize("how", ["raises", "answers nonsense", "no hook"])
async def test_a_failed_review_fails_the_run_with_the_reason(run_agent: RunAgent, how: str) -> None:
    async def raises(run_id: str, tasks: list[str]) -> PlanAnswer:
        raise ConnectionError("the editor went away")

    async def nonsense(run_id: str, tasks: list[str]) -> Any:
        return {"tasks": tasks}

    hook = {"raises": raises, "answers nonsense": nonsense, "no hook": None}[how]
    out = await run_agent([plan("Read src/app.py"), act("read_file", {"path": "src/app.py"})],
                          settings=PLAN, plan_review=hook)  # fmt: skip
    assert out.state.status == "failed" and (out.state.error or "").startswith("plan review failed")
    assert out.acting() == []


async def test_no_answer_in_time_fails_and_a_cancel_stops_the_wait(run_agent: RunAgent, make_agent: Any) -> None:
    async def never(run_id: str, tasks: list[str]) -> PlanAnswer:
        await asyncio.sleep(60)
        raise AssertionError("not reached")

    slow = RunSettings(approval="plan", mode="read-only", proposal_timeout_s=0.2)
    out = await run_agent([plan("Read src/app.py")], settings=slow, plan_review=never)
    assert out.state.status == "failed" and "no answer about the plan in 0.2 s" in (out.state.error or "")

    agent, _, _ = make_agent([plan("Read src/app.py")], PLAN, plan_review=never)
    running = asyncio.create_task(agent.run("Read it"))
    await asyncio.sleep(0.3)
    agent.cancel()
    state = await asyncio.wait_for(running, 5)
    assert state.status == "cancelled"


async def test_start_run_refuses_plan_without_a_hook(tmp_path: Path) -> None:
    bench = Workbench.open(Workspace(tmp_path))
    with pytest.raises(RunRequestError) as refused:
        start_run(bench, RunRequest("x", approval="plan"), settings=Settings(), model=object())  # type: ignore[arg-type]
    assert refused.value.field == "approval"
    assert not (tmp_path / ".agentls" / "runs").exists()
