"""The AgentGPT task loop driven by scripted transcripts through the real tools (loop.py)."""

from __future__ import annotations

import pytest

from agentls.agent.agent import RunSettings

from .conftest import RunAgent, act, finish, plan


async def test_initial_tasks_are_capped_at_three(run_agent: RunAgent) -> None:
    script = [plan("t1", "t2", "t3", "t4", "t5")]
    for i in range(1, 4):
        script += [finish(f"r{i}"), plan()]
    out = await run_agent(script)
    assert out.state.status == "completed"
    assert [t.title for t in out.state.tasks] == ["t1", "t2", "t3"]
    assert [t.result for t in out.state.tasks] == ["r1", "r2", "r3"]
    assert (out.state.summary or "").startswith("r3\n")  # the last task's finish summary, then the facts
    assert out.model.position == len(script)


async def test_new_tasks_are_created_from_results(run_agent: RunAgent) -> None:
    script = [
        plan("Read the app"),
        act("read_file", {"path": "src/app.py"}),
        finish("main returns 1"),
        plan("Read the README", "Read the app"),  # the duplicate is dropped
        act("read_file", {"path": "README.md"}),
        finish("it says hello world"),
        plan(),
    ]
    out = await run_agent(script)
    assert out.state.status == "completed"
    assert [(t.title, t.status) for t in out.state.tasks] == [
        ("Read the app", "done"),
        ("Read the README", "done"),
    ]
    replan = [t for t in out.model.turns if t.kind == "plan"][1]
    assert "Read the app" in replan.text() and "main returns 1" in replan.text()
    assert out.state.steps == 4
    # The second task's acting prompt shows the first task's result.
    assert "Read the app: main returns 1" in out.acting()[2].text()


async def test_an_empty_first_plan_makes_the_goal_the_task(run_agent: RunAgent) -> None:
    out = await run_agent([plan(), finish(), plan()])
    assert out.state.status == "completed"
    assert [t.title for t in out.state.tasks] == [out.state.goal]
    assert out.state.steps == 1


@pytest.mark.parametrize(
    "content", ['```json\n["a"]\n```', 'Here you go: ["a"]', '{"tasks": ["a"]}']
)
async def test_planning_replies_are_read_leniently(run_agent: RunAgent, content: str) -> None:
    out = await run_agent([plan(content=content), finish(), plan()])
    assert [t.title for t in out.state.tasks] == ["a"]


async def test_unparsable_plan_is_fed_back_and_retried(run_agent: RunAgent) -> None:
    out = await run_agent(
        [plan(content="I would first read the code."), plan("a"), finish(), plan()]
    )
    assert out.state.status == "completed"
    retry = out.model.turns[1]
    assert retry.messages[-2] == {"role": "assistant", "content": "I would first read the code."}
    assert "not a JSON array" in retry.messages[-1]["content"]
    assert out.of("error")[0]["type"] == "bad_reply"


async def test_max_loops_ends_the_run(run_agent: RunAgent) -> None:
    script = [plan("t1")]
    for i in range(2, 5):
        script += [finish(), plan(f"t{i}")]
    out = await run_agent(script, settings=RunSettings(approval="never", max_loops=2))
    assert out.state.status == "budget_exhausted"
    assert out.state.error and "loop budget exhausted" in out.state.error
    assert [t.status for t in out.state.tasks] == ["done", "done", "skipped"]


async def test_tools_run_for_real_and_results_go_back_as_tool_messages(run_agent: RunAgent) -> None:
    out = await run_agent(
        [plan("read"), act("read_file", {"path": "README.md"}, call_id="c1"), finish(), plan()]
    )
    tool_msg = out.acting()[1].messages[-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "c1"
    assert '"ok": true' in tool_msg["content"] and "hello world" in tool_msg["content"]
    assert out.acting()[1].messages[-2]["tool_calls"][0]["id"] == "c1"


async def test_a_tool_error_is_not_a_bad_reply(run_agent: RunAgent) -> None:
    missing = [act("read_file", {"path": f"nope{i}.py"}) for i in range(4)]
    out = await run_agent([plan("read"), *missing, finish(), plan()])
    assert out.state.status == "completed"
    assert all('"type": "runtime"' in t.messages[-1]["content"] for t in out.acting()[1:])


async def test_model_error_fails_the_run(run_agent: RunAgent) -> None:
    out = await run_agent([plan("t")])  # the recording ends
    assert out.state.status == "failed"
    assert out.state.error and "replay exhausted after 1 turns" in out.state.error


async def test_a_recorded_run_replays_to_the_same_end(make_agent, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from agentls.agent.agent import Agent
    from agentls.llm.replay import Recorder, ReplayModel

    script = [
        plan("Read it"),
        act("read_file", {"path": "README.md"}),
        finish("it says hello"),
        plan(),
    ]
    agent, model, _ = make_agent(script)
    recording = tmp_path / "recorded.jsonl"
    agent.model = Recorder(model, recording)
    agent.context.context_tokens = agent.model.context_tokens
    first = await agent.run("Read the README")
    again = Agent(
        workspace=agent.tool_context.workspace,
        model=ReplayModel(recording),
        settings=agent.settings,
    )
    second = await again.run("Read the README")
    assert first.status == second.status == "completed"
    assert (first.summary, first.steps) == (second.summary, second.steps) == ("it says hello", 2)
