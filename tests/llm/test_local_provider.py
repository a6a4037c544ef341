"""LocalModel's own logic with a fake `Llama`: lazy load, turn parsing, usage, errors, cancel.

The real llama.cpp path is covered by test_local_model.py (marked `local_model`).
"""

from __future__ import annotations

import asyncio
import json
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentls.llm.base import TASKS_SCHEMA, ModelError, cancellable
from agentls.llm.local import model_files
from agentls.llm.local.grammar import tool_call_schema
from agentls.llm.local.provider import TOOLS_RESERVE, LocalModel, threads_from_env

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    },
}
HISTORY = [
    {"role": "system", "content": "sys"},
    {"role": "user", "content": "Read notes.txt"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c0", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c0", "content": "error: path is required"},
]


class FakeLlama:
    """Streams scripted outputs in 2-character pieces, one piece per "token"."""

    def __init__(
        self, outputs: list[str], delay: float = 0.0, error: Exception | None = None
    ) -> None:
        self.outputs = list(outputs)
        self.delay = delay
        self.error = error
        self.calls: list[dict[str, Any]] = []
        self.init_kwargs: list[dict[str, Any]] = []
        self.n_tokens = 0
        self.stopped_after: int | None = None

    def factory(self, **kwargs: Any) -> FakeLlama:
        self.init_kwargs.append(kwargs)
        return self

    def create_chat_completion(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        self.calls.append(kwargs)
        if self.error:
            raise self.error
        text = self.outputs.pop(0)
        prompt = 10 * len(kwargs["messages"])

        def stream() -> Iterator[dict[str, Any]]:
            pieces = [text[i : i + 2] for i in range(0, len(text), 2)]
            done = 0
            try:
                yield {"choices": [{"delta": {"role": "assistant"}, "finish_reason": None}]}
                for piece in pieces:
                    time.sleep(self.delay)
                    done += 1
                    self.n_tokens = prompt + done
                    yield {"choices": [{"delta": {"content": piece}, "finish_reason": None}]}
                yield {"choices": [{"delta": {}, "finish_reason": "stop"}]}
            finally:
                self.stopped_after = done

        return stream()


def gguf_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 0))
    return path


def local(
    tmp_path: Path, fake: FakeLlama, grammars: list[dict[str, Any]] | None = None
) -> LocalModel:
    def compile_grammar(schema: dict[str, Any], llama: Any) -> dict[str, Any]:
        if grammars is not None:
            grammars.append(schema)
        return schema

    return LocalModel(
        gguf_file(tmp_path),
        n_threads=1,
        llama_factory=fake.factory,
        grammar_factory=compile_grammar,
    )


async def test_acting_turn_becomes_one_tool_call(tmp_path: Path) -> None:
    fake = FakeLlama(['{"name": "read_file", "arguments": {"path": "notes.txt"}}'])
    grammars: list[dict[str, Any]] = []
    model = local(tmp_path, fake, grammars)
    assert fake.init_kwargs == []  # nothing loaded before the first turn
    turn = await model.complete(HISTORY, tools=[READ])
    (call,) = turn.tool_calls
    assert call.name == "read_file" and json.loads(call.arguments) == {"path": "notes.txt"}
    assert call.id.startswith("call_") and turn.content is None
    assert grammars == [tool_call_schema([READ])]
    sent = fake.calls[0]
    assert sent["stream"] is True and sent["grammar"] == tool_call_schema([READ])
    assert {m["role"] for m in sent["messages"]} <= {"system", "user", "assistant"}
    assert "Result of read_file: error: path is required" in sent["messages"][-1]["content"]
    assert (turn.usage.prompt_tokens, turn.usage.completion_tokens, turn.usage.cost) == (
        40,
        29,
        None,
    )
    assert turn.raw["choices"][0]["finish_reason"] == "stop"


async def test_planning_turn_returns_the_array_text_and_model_is_kept(tmp_path: Path) -> None:
    fake = FakeLlama(['["a", "b"]', '{"name": "read_file", "arguments": {"path": "x"}}', '["c"]'])
    grammars: list[dict[str, Any]] = []
    model = local(tmp_path, fake, grammars)
    first = await model.complete(HISTORY[:2], json_schema=TASKS_SCHEMA)
    await model.complete(HISTORY[:2], tools=[READ])
    third = await model.complete(HISTORY[:2], json_schema=TASKS_SCHEMA)
    assert (first.content, first.tool_calls, third.content) == ('["a", "b"]', [], '["c"]')
    assert len(fake.init_kwargs) == 1  # one Llama object for the model's life
    assert fake.init_kwargs[0]["n_threads"] == 1 and fake.init_kwargs[0]["n_threads_batch"] == 1
    assert len(grammars) == 2  # compiled once per distinct schema


@pytest.mark.parametrize(
    "output",
    ['{"name": "read_file", "arguments": {"path": "no', "[1, 2]", '{"arguments": {}}'],
    ids=["cut-at-max-tokens", "not-an-object", "no-name"],
)
async def test_unparsable_output_is_content_for_the_agent_to_reject(
    tmp_path: Path, output: str
) -> None:
    turn = await local(tmp_path, FakeLlama([output])).complete(HISTORY, tools=[READ])
    assert turn.tool_calls == [] and turn.content == output


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            ValueError("Requested tokens (5000) exceed context window of 4096"),
            "exceed context window",
        ),
        (RuntimeError("llama_decode returned -1"), "llama_decode"),
    ],
)
async def test_generation_errors_become_model_errors(
    tmp_path: Path, error: Exception, message: str
) -> None:
    with pytest.raises(ModelError, match=message):
        await local(tmp_path, FakeLlama([], error=error)).complete(HISTORY, tools=[READ])


async def test_load_failure_is_a_model_error(tmp_path: Path) -> None:
    def broken(**kwargs: Any) -> Any:
        raise ValueError("Failed to load model from file")

    model = LocalModel(gguf_file(tmp_path), llama_factory=broken)
    with pytest.raises(ModelError, match="cannot load the local model .*Failed to load"):
        await model.complete(HISTORY, tools=[READ])


@pytest.mark.parametrize(
    ("content", "message"), [(None, "not found"), (b"PK\x03\x04 a zip file", "bad magic")]
)
async def test_user_file_is_checked_before_loading(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "user.gguf"
    if content is not None:
        path.write_bytes(content)
    fake = FakeLlama(["[]"])
    model = LocalModel(path, llama_factory=fake.factory)
    assert model.name == f"local:{path}"
    with pytest.raises(ModelError, match=message):
        await model.complete(HISTORY)
    assert fake.init_kwargs == []


async def test_missing_embedded_parts_say_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    missing = model_files.KnownModel(
        "x", "x.gguf", "agentls-absent-part{n}", "1.0", 2, "0" * 64, 10, "qwen2"
    )
    model = LocalModel(model=missing, llama_factory=FakeLlama([]).factory)
    assert model.name == "local"
    with pytest.raises(ModelError, match=r"agentls-absent-part1==1\.0.*agentls\[local\]"):
        await model.complete(HISTORY)


async def test_cancel_returns_at_once_and_stops_generation(tmp_path: Path) -> None:
    long_output = '{"name": "read_file", "arguments": {"path": "' + "x" * 2000 + '"}}'
    fake = FakeLlama([long_output, "[]"], delay=0.005)  # ~5 s if never stopped
    model = local(tmp_path, fake)
    cancel = asyncio.Event()
    asyncio.get_running_loop().call_later(0.1, cancel.set)
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(
            cancellable(model.complete(HISTORY, tools=[READ]), cancel), timeout=2
        )
    for _ in range(200):  # the worker notices at its next token
        if fake.stopped_after is not None:
            break
        await asyncio.sleep(0.01)
    assert fake.stopped_after is not None and fake.stopped_after < len(long_output) // 2
    fake.delay = 0.0
    assert (await model.complete(HISTORY)).content == "[]"  # the model is free again


async def test_aclose_drops_the_model(tmp_path: Path) -> None:
    fake = FakeLlama(["[]", "[]"])
    model = local(tmp_path, fake)
    await model.complete(HISTORY)
    await model.aclose()
    await model.complete(HISTORY)
    assert len(fake.init_kwargs) == 2


@pytest.mark.parametrize(("raw", "expected"), [("", None), ("auto", None), ("2", 2), (" 4 ", 4)])
def test_threads_from_env(raw: str, expected: int | None) -> None:
    assert threads_from_env({"AGENTLS_LOCAL_THREADS": raw}) == expected


@pytest.mark.parametrize("raw", ["0", "two", "-1"])
def test_bad_threads_value(raw: str) -> None:
    with pytest.raises(ValueError, match="AGENTLS_LOCAL_THREADS"):
        threads_from_env({"AGENTLS_LOCAL_THREADS": raw})


@pytest.mark.parametrize(
    ("kwargs", "grammar"),
    [
        ({"json_schema": TASKS_SCHEMA}, "tasks"),
        ({}, None),  # free text (e.g. a history summary): no grammar at all
    ],
)
async def test_turns_without_tools(
    tmp_path: Path, kwargs: dict[str, Any], grammar: str | None
) -> None:
    fake = FakeLlama(["Some words."])
    turn = await local(tmp_path, fake).complete(HISTORY[:2], **kwargs)
    sent = fake.calls[0]["grammar"]
    assert (sent["type"] if sent else None) == ("array" if grammar else None)
    assert turn.content == "Some words." and turn.tool_calls == []


def test_context_budget_leaves_room_for_reply_and_tool_list(tmp_path: Path) -> None:
    model = LocalModel(gguf_file(tmp_path), n_ctx=4096, max_tokens=1024)
    assert model.context_tokens == 4096 - 1024 - TOOLS_RESERVE > 0


async def test_unusable_tool_schema_is_a_model_error(tmp_path: Path) -> None:
    bad = {"type": "function", "function": {"name": "x", "parameters": {"$ref": "#/$defs/Nope"}}}
    with pytest.raises(ModelError, match="cannot constrain"):
        await local(tmp_path, FakeLlama([])).complete(HISTORY, tools=[bad])


async def test_an_acting_reply_identical_to_the_last_is_sampled_again(tmp_path: Path) -> None:
    # at temperature 0 the 1.5B repeated one wrong edit_file three times after being told
    same = '{"name": "read_file", "arguments": {"path": "a.py"}}'
    other = '{"name": "read_file", "arguments": {"path": "b.py"}}'
    fake = FakeLlama([same, same, other, same])
    model = local(tmp_path, fake)
    first = await model.complete(HISTORY, tools=[READ])
    second = await model.complete(HISTORY, tools=[READ])
    assert json.loads(first.tool_calls[0].arguments) == {"path": "a.py"}
    assert json.loads(second.tool_calls[0].arguments) == {"path": "b.py"}  # the resample
    assert [c["temperature"] for c in fake.calls] == [0.0, 0.0, 0.7]
    assert fake.calls[2]["seed"] != fake.calls[1]["seed"]
    assert second.usage.completion_tokens > 0
    # a planning turn (no tools) is never resampled, and the next acting reply compares
    # with the resample, not the repeat
    third = await model.complete(HISTORY, tools=[READ])
    assert json.loads(third.tool_calls[0].arguments) == {"path": "a.py"} and len(fake.calls) == 4


async def test_another_try_after_a_failed_check_is_sampled_more_freely(tmp_path: Path) -> None:
    # at temperature 0 the 1.5B rewrote the very code the tests had just failed
    from agentls.llm.local.provider import RETRY_TEMPERATURE

    one = '{"name": "read_file", "arguments": {"path": "a.py"}}'
    two = '{"name": "read_file", "arguments": {"path": "b.py"}}'
    fake = FakeLlama([one, two])
    model = local(tmp_path, fake)
    assert model.varies
    await model.complete(HISTORY, tools=[READ])
    await model.complete(HISTORY, tools=[READ], attempt=2)
    assert [c["temperature"] for c in fake.calls] == [0.0, RETRY_TEMPERATURE]
    assert fake.calls[1]["seed"] != fake.calls[0]["seed"]
