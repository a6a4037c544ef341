"""Budgets (steps, tokens, time, cost) and the watchdog (builtin/budgets.py, builtin/watchdog.py)."""

from __future__ import annotations

import pytest

from agentls.agent.agent import RunSettings

from .conftest import RunAgent, act, finish, plan

READS = [
    act("read_file", {"path": p}) for p in ["README.md", "src/app.py", "README.md", "src/app.py"]
]


async def test_max_steps_exhausts_the_budget(run_agent: RunAgent) -> None:
    out = await run_agent([plan("t"), *READS], settings=RunSettings(approval="never", max_steps=2))
    assert out.state.status == "budget_exhausted"
    assert out.state.steps == 2
    assert out.state.error == "step budget exhausted: all 2 acting steps were used"
    assert len(out.acting()) == 2  # the third acting turn never reached the model
    assert out.state.tasks[0].status == "failed"
    assert "Only 1 step(s) left" in out.acting()[1].text()


@pytest.mark.parametrize(
    ("settings", "usage", "fragment"),
    [
        (
            RunSettings(approval="never", token_budget=100),
            {"prompt_tokens": 40, "completion_tokens": 10},
            "token budget exhausted: 100",
        ),
        (
            RunSettings(approval="never", cost_budget=0.25),
            {"prompt_tokens": 1, "completion_tokens": 1, "cost": 0.1},
            "cost budget exhausted",
        ),
    ],
)
async def test_token_and_cost_budgets(
    run_agent: RunAgent, settings: RunSettings, usage: dict, fragment: str
) -> None:
    script = [plan("t", usage=usage)] + [
        act("read_file", {"path": f"f{i}"}, usage=usage) for i in range(5)
    ]
    out = await run_agent(script, settings=settings)
    assert out.state.status == "budget_exhausted"
    assert out.state.error and fragment in out.state.error
    assert out.of("error")[-1]["type"] == "budget_exhausted"


async def test_time_budget(run_agent: RunAgent) -> None:
    script = [plan("t"), act("read_file", {"path": "README.md"}, delay_s=0.3), *READS]
    out = await run_agent(script, settings=RunSettings(approval="never", time_budget_s=0.2))
    assert out.state.status == "budget_exhausted"
    assert out.state.error and "time budget exhausted" in out.state.error
    assert out.of("tool_call") == []  # checked again after the slow reply, before running it


async def test_watchdog_turns_a_repeat_away_with_the_result_and_stops_offering_the_tool(run_agent: RunAgent) -> None:
    same = act("read_file", {"path": "README.md"})
    out = await run_agent([plan("t"), same, same, same, finish("it says hello world"), plan()])
    assert out.state.status == "completed", out.state.error  # the answer was in hand
    assert len(out.of("tool_call")) == 2  # the first read and the finish: no repeat ran
    warning = out.acting()[2].messages[-1]
    assert warning["role"] == "tool" and "Not run: you already made this read_file call" in warning["content"]
    assert "It answered: " in warning["content"] and "hello world" in warning["content"]  # the result, quoted back
    assert "read_file" not in out.acting()[2].tools and "finish" in out.acting()[2].tools
    assert [e["type"] for e in out.of("error")] == ["call_rejected", "call_rejected"]


async def test_a_success_resets_the_no_progress_count(run_agent: RunAgent) -> None:
    bad = [act("read_file", {"path": f"missing{i}.py"}) for i in range(7)]
    good = act("read_file", {"path": "README.md"})
    more = [act("read_file", {"path": f"other{i}.py"}) for i in range(7)]
    out = await run_agent([plan("t"), *bad, good, *more, finish(), plan()])
    assert out.state.status == "completed", out.state.error


async def test_a_change_made_again_and_again_ends_the_task_for_the_done_check(run_agent: RunAgent) -> None:
    # the 0.5B renamed Usr to User right, then repeated the rename until the run was stopped
    edit = act("edit_file", {"path": "src/app.py", "old": "return 1", "new": "return 2"})
    out = await run_agent([plan("t"), edit, edit, edit, plan()], goal="Change main in src/app.py to return 2",
                          settings=RunSettings(approval="auto"))  # fmt: skip
    assert out.state.status == "completed", out.state.error
    assert out.state.summary and "The change is in place in src/app.py (edit_file)" in out.state.summary
    assert [e["name"] for e in out.of("tool_call")] == ["edit_file"]


async def test_a_repeated_change_that_does_not_reach_the_goal_still_fails(run_agent: RunAgent) -> None:
    edit = act("edit_file", {"path": "src/app.py", "old": "return 1", "new": "return 1 + 0"})
    out = await run_agent([plan("t"), edit, edit, edit, plan()], goal="Change the title in README.md to Demo",
                          settings=RunSettings(approval="auto"))  # fmt: skip
    assert out.state.status == "failed"  # the done check: the goal names README.md, not src/app.py
