"""ReplayModel (playing JSONL transcripts) and Recorder (writing them) — llm/replay.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentls.llm.base import ChatModel, Message, ModelError, ModelTurn, ToolCall, ToolSpec, Usage
from agentls.llm.replay import Recorder, ReplayModel

TOOLS: list[ToolSpec] = [
    {"type": "function", "function": {"name": "finish", "description": "", "parameters": {}}}
]
MESSAGES: list[Message] = [
    {"role": "system", "content": "s"},
    {"role": "user", "content": "u1"},
    {"role": "user", "content": "u2"},
]


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text(
        "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    )
    return path


async def test_replays_turns_in_order(tmp_path: Path) -> None:
    path = write(
        tmp_path / "t.jsonl",
        [
            {
                "request": {"kind": "plan"},
                "response": {
                    "content": '["a"]',
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2},
                },
            },
            "",
            {
                "response": {
                    "content": None,
                    "tool_calls": [{"id": "c1", "name": "finish", "arguments": '{"summary": "x"}'}],
                }
            },
            {
                "response": {
                    "tool_calls": [{"name": "finish", "arguments": {"summary": "y"}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "cost": 0.5},
                }
            },
        ],
    )
    model = ReplayModel(path)
    assert isinstance(model, ChatModel)
    assert model.name == f"replay:{path}" and model.context_tokens >= 100_000
    first = await model.complete(MESSAGES)
    assert (first.content, first.tool_calls, first.usage) == ('["a"]', [], Usage(3, 2))
    second = await model.complete(MESSAGES, tools=TOOLS)
    assert second.tool_calls == [ToolCall("c1", "finish", '{"summary": "x"}')]
    third = await model.complete(MESSAGES, tools=TOOLS)
    assert third.tool_calls == [ToolCall("call_0", "finish", '{"summary": "y"}')]
    assert third.usage.cost == 0.5
    with pytest.raises(ModelError, match="replay exhausted after 3 turns"):
        await model.complete(MESSAGES, tools=TOOLS)


async def test_a_turn_of_the_wrong_kind_is_an_error(tmp_path: Path) -> None:
    model = ReplayModel(
        write(tmp_path / "t.jsonl", [{"request": {"kind": "act"}, "response": {"content": "x"}}])
    )
    with pytest.raises(
        ModelError, match="recorded for a 'act' turn, but the run asked for a 'plan' turn"
    ):
        await model.complete(MESSAGES)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("{not json", ":1: not JSON"),
        ({"request": {"kind": "plan"}}, "needs a 'response' object"),
        ({"response": {"content": 3}}, "'content' must be a string or null"),
        ({"response": {"tool_calls": [{"arguments": "{}"}]}}, "tool call 0 has no name"),
        ({"response": {"usage": {"prompt_tokens": "many"}}}, "bad 'usage'"),
    ],
)
async def test_bad_lines_are_model_errors(tmp_path: Path, line: Any, fragment: str) -> None:
    model = ReplayModel(write(tmp_path / "t.jsonl", [line]))
    with pytest.raises(ModelError, match=fragment.replace("(", r"\(")):
        await model.complete(MESSAGES)


async def test_a_missing_file_is_a_model_error_on_the_first_turn(tmp_path: Path) -> None:
    model = ReplayModel(tmp_path / "missing.jsonl")  # constructing it is fine
    with pytest.raises(ModelError, match="cannot read the replay file"):
        await model.complete(MESSAGES)


class Scripted:
    name = "scripted"
    context_tokens = 4096

    def __init__(self) -> None:
        self.closed = False

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> ModelTurn:
        if tools is None:
            return ModelTurn('["t"]', usage=Usage(5, 1))
        return ModelTurn(
            "ok", [ToolCall("id1", "finish", '{"summary": "s"}')], Usage(7, 2, cost=0.01)
        )

    async def aclose(self) -> None:
        self.closed = True


async def test_a_recording_replays_the_same_turns(tmp_path: Path) -> None:
    inner = Scripted()
    path = tmp_path / "rec" / "run.jsonl"
    recorder = Recorder(inner, path)
    assert (recorder.name, recorder.context_tokens) == ("scripted", 4096)
    live = [await recorder.complete(MESSAGES), await recorder.complete(MESSAGES, tools=TOOLS)]
    await recorder.aclose()
    assert inner.closed
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["request"]["kind"] for line in lines] == ["plan", "act"]
    assert lines[0]["request"]["messages_tail"] == MESSAGES[-2:]
    assert lines[1]["response"] == {
        "content": "ok",
        "tool_calls": [{"id": "id1", "name": "finish", "arguments": '{"summary": "s"}'}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 2, "cost": 0.01},
    }
    replay = ReplayModel(path)
    replayed = [await replay.complete(MESSAGES), await replay.complete(MESSAGES, tools=TOOLS)]
    for a, b in zip(live, replayed, strict=True):
        assert (a.content, a.tool_calls, a.usage) == (b.content, b.tool_calls, b.usage)


async def test_recording_appends(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    for _ in range(2):
        await Recorder(Scripted(), path).complete(MESSAGES)
    assert len(path.read_text().splitlines()) == 2


async def test_an_unwritable_recording_is_a_model_error(tmp_path: Path) -> None:
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(ModelError, match="cannot write the recording"):
        await Recorder(Scripted(), tmp_path / "dir.jsonl").complete(MESSAGES)
