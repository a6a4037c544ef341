"""Bad model replies are fed back and retried; three in a row fail the run (loop.py, replies.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import RunAgent, act, finish, plan, say

BAD = {
    "no tool call": say("I think the file is fine."),
    "unknown tool": act("delete_everything", {}, call_id="bad1"),
    "invalid arguments": act("read_file", {"file": "README.md"}, call_id="bad1"),
    "unparsable JSON": act("read_file", raw='{"path": "README.md"', call_id="bad1"),
    "not an object": act("read_file", raw='["README.md"]', call_id="bad1"),
}
FEEDBACK = {
    "no tool call": "called no tool",
    "unknown tool": "Unknown tool 'delete_everything'",
    "invalid arguments": "Invalid arguments for read_file",
    "unparsable JSON": "not valid JSON",
    "not an object": "must be a JSON object",
}


@pytest.mark.parametrize("kind", list(BAD))
async def test_a_bad_reply_is_fed_back_and_retried(run_agent: RunAgent, kind: str) -> None:
    out = await run_agent([plan("t"), BAD[kind], finish("ok"), plan()])
    assert out.state.status == "completed"
    retry = out.acting()[1].messages
    feedback: dict[str, Any] = retry[-1]
    assert FEEDBACK[kind] in feedback["content"]
    if kind == "no tool call":
        assert feedback["role"] == "user"
        assert retry[-2] == {"role": "assistant", "content": "I think the file is fine."}
    else:
        assert feedback["role"] == "tool" and feedback["tool_call_id"] == "bad1"
        assert retry[-2]["tool_calls"][0]["id"] == "bad1"
    errors = out.of("error")
    assert errors[0]["type"] == "bad_reply" and FEEDBACK[kind] in errors[0]["message"]
    assert "tool_call" not in [e.kind for e in out.events if e.data.get("id") == "bad1"]


@pytest.mark.parametrize("kind", list(BAD))
async def test_three_bad_replies_in_a_row_fail_the_run(run_agent: RunAgent, kind: str) -> None:
    out = await run_agent([plan("t"), BAD[kind], BAD[kind], BAD[kind]])
    assert out.state.status == "failed"
    assert out.state.error and "3 bad replies in a row" in out.state.error
    assert FEEDBACK[kind] in out.state.error
    assert out.kinds()[-1] == "finished"


async def test_mixed_bad_replies_count_together(run_agent: RunAgent) -> None:
    out = await run_agent(
        [plan("t"), BAD["no tool call"], BAD["unknown tool"], BAD["unparsable JSON"]]
    )
    assert out.state.status == "failed"


async def test_a_good_reply_resets_the_count(run_agent: RunAgent) -> None:
    bad = BAD["unknown tool"]
    good = act("read_file", {"path": "README.md"})
    out = await run_agent([plan("t"), bad, bad, good, bad, bad, finish(), plan()])
    assert out.state.status == "completed"
    assert out.state.steps == 6


async def test_extra_calls_in_one_reply_are_not_run(run_agent: RunAgent) -> None:
    two = act("read_file", {"path": "README.md"}, call_id="first")
    two["response"]["tool_calls"].append(
        {"id": "second", "name": "read_file", "arguments": '{"path": "src/app.py"}'}
    )
    out = await run_agent([plan("t"), two, finish(), plan()])
    assert out.state.status == "completed"
    msgs = out.acting()[1].messages
    assert [m.get("tool_call_id") for m in msgs[-2:]] == ["first", "second"]
    assert "hello world" in msgs[-2]["content"]
    assert "Not run: exactly one tool call per turn" in msgs[-1]["content"]
    assert [e["id"] for e in out.of("tool_call")] == ["first", out.of("tool_call")[1]["id"]]


async def test_the_feedback_names_only_the_tools_offered(run_agent: RunAgent) -> None:
    # read-only: write and shell tools are not offered, so the feedback must not list them
    from agentls.agent.agent import RunSettings

    out = await run_agent([plan("t"), BAD["unknown tool"], finish("ok"), plan()],
                          settings=RunSettings(mode="read-only", approval="never"))  # fmt: skip
    feedback = out.acting()[1].messages[-1]["content"]
    assert "The tools are:" in feedback and "read_file" in feedback and "finish" in feedback
    assert "write_file" not in feedback and "run_command" not in feedback
