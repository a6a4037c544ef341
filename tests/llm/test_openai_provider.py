"""The real OpenAIModel (official SDK) against a scripted OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import pytest

from agentls.llm.base import TASKS_SCHEMA, ModelError, cancellable
from agentls.llm.openai_provider import OpenAIModel
from tests.llm.fake_openai import FakeOpenAIServer

READ_FILE = {
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
FINISH = {
    "type": "function",
    "function": {
        "name": "finish",
        "description": "Finish.",
        "parameters": {
            "type": "object",
            "properties": {"summary": {"type": "string"}},
            "required": ["summary"],
        },
    },
}
MESSAGES = [
    {"role": "system", "content": "You are a test."},
    {"role": "user", "content": "Read notes.txt"},
]
USAGE = {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49}
STREAM = pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])


def model_for(server: FakeOpenAIServer, stream: bool, **kwargs: Any) -> OpenAIModel:
    kwargs.setdefault("api_key", "sk-test")
    return OpenAIModel("fake-model", server.base_url, stream=stream, max_retries=0, **kwargs)


@STREAM
@pytest.mark.parametrize(
    "calls",
    [
        [{"id": "call_1", "name": "read_file", "arguments": '{"path": "notes.txt"}'}],
        [  # several calls come back as they are: the agent rejects them, not the provider
            {"id": "call_a", "name": "read_file", "arguments": '{"path": "a.txt"}'},
            {
                "id": "call_b",
                "name": "finish",
                "arguments": '{"summary": "done with \\"quotes\\" ünïcode"}',
            },
        ],
    ],
    ids=["one", "two"],
)
async def test_acting_turn_returns_tool_calls_and_offers_tools(
    stream: bool, calls: list[dict[str, str]]
) -> None:
    with FakeOpenAIServer([{"content": None, "tool_calls": calls, "usage": USAGE}]) as server:
        model = model_for(server, stream)
        turn = await model.complete(MESSAGES, tools=[READ_FILE, FINISH])
        await model.aclose()
    assert [(c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls] == [
        (c["id"], c["name"], json.loads(c["arguments"])) for c in calls
    ]
    assert turn.content is None
    assert (turn.usage.prompt_tokens, turn.usage.completion_tokens, turn.usage.cost) == (
        42,
        7,
        None,
    )
    (body,) = server.requests
    assert server.paths == ["/v1/chat/completions"]
    assert body["model"] == "fake-model"
    assert body["messages"] == MESSAGES
    assert body["tools"] == [READ_FILE, FINISH]
    assert body["tool_choice"] == "auto"
    assert bool(body.get("stream")) is stream
    assert turn.as_message()["tool_calls"][0]["function"]["name"] == calls[0]["name"]


@STREAM
async def test_planning_turn_sends_no_tools_and_returns_content(stream: bool) -> None:
    content = '["Read notes.txt", "Summarize it"]'
    with FakeOpenAIServer([{"content": content, "usage": USAGE}]) as server:
        model = model_for(server, stream)
        turn = await model.complete(MESSAGES, json_schema=TASKS_SCHEMA)
        await model.aclose()
    assert turn.content == content
    assert turn.tool_calls == []
    assert turn.usage.prompt_tokens == 42
    (body,) = server.requests
    assert "tools" not in body and "tool_choice" not in body and "response_format" not in body


@STREAM
async def test_content_and_tool_call_together(stream: bool) -> None:
    call = {"id": "c9", "name": "finish", "arguments": '{"summary": "ok"}'}
    with FakeOpenAIServer([{"content": "Thinking: done.", "tool_calls": [call]}]) as server:
        model = model_for(server, stream)
        turn = await model.complete(MESSAGES, tools=[FINISH])
        await model.aclose()
    assert turn.content == "Thinking: done."
    assert [c.name for c in turn.tool_calls] == ["finish"]


async def test_streaming_asks_for_usage() -> None:
    with FakeOpenAIServer([{"content": "[]", "usage": USAGE}]) as server:
        model = model_for(server, True)
        turn = await model.complete(MESSAGES)
        await model.aclose()
    assert server.requests[0]["stream_options"] == {"include_usage": True}
    assert turn.usage.completion_tokens == 7 and turn.raw["streamed"] is True


@STREAM
@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (401, ["401", "AGENTLS_TEST_KEY"]),
        (404, ["404", "fake-model"]),
        (429, ["429", "slow down"]),
        (500, ["HTTP 500", "slow down"]),
    ],
)
async def test_http_errors_become_model_errors(
    stream: bool, status: int, expected: list[str]
) -> None:
    # twice: a streamed request that fails with a 5xx is sent once more without streaming
    with FakeOpenAIServer([{"status": status, "message": "slow down"}] * 2) as server:
        model = model_for(  # native only: under auto a 5xx is retried in the next shape
            server, stream, api_key=None, api_key_env="AGENTLS_TEST_KEY", tool_protocol="native"
        )
        with pytest.raises(ModelError) as info:
            await model.complete(MESSAGES, tools=[READ_FILE])
        await model.aclose()
    for text in expected:
        assert text in str(info.value)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@STREAM
async def test_connection_refused_names_the_base_url(stream: bool) -> None:
    base = f"http://127.0.0.1:{free_port()}/v1"
    model = OpenAIModel("m", base, api_key="k", stream=stream, max_retries=0)
    with pytest.raises(ModelError) as info:
        await model.complete(MESSAGES)
    await model.aclose()
    assert base in str(info.value) and "base URL" in str(info.value)


async def test_missing_key_for_openai_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTLS_TEST_KEY", raising=False)
    model = OpenAIModel("gpt-x", None, api_key_env="AGENTLS_TEST_KEY")  # default OpenAI URL
    with pytest.raises(ModelError, match="AGENTLS_TEST_KEY"):
        await model.complete(MESSAGES)


@pytest.mark.parametrize(
    ("env_value", "expected"), [(None, "Bearer not-needed"), ("sk-from-env", "Bearer sk-from-env")]
)
async def test_key_for_a_custom_url(
    monkeypatch: pytest.MonkeyPatch, env_value: str | None, expected: str
) -> None:
    if env_value is None:
        monkeypatch.delenv("AGENTLS_TEST_KEY", raising=False)
    else:
        monkeypatch.setenv("AGENTLS_TEST_KEY", env_value)
    with FakeOpenAIServer([{"content": "[]"}]) as server:
        model = model_for(server, False, api_key=None, api_key_env="AGENTLS_TEST_KEY")
        await model.complete(MESSAGES)
        await model.aclose()
    assert server.headers[0]["authorization"] == expected


async def test_cancel_returns_at_once() -> None:
    with FakeOpenAIServer([{"content": "[]", "delay": 2.0}]) as server:
        model = model_for(server, False)
        cancel = asyncio.Event()
        asyncio.get_running_loop().call_later(0.05, cancel.set)
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(cancellable(model.complete(MESSAGES), cancel), timeout=1.5)
        await model.aclose()


async def test_reply_without_choices_is_a_model_error() -> None:
    with FakeOpenAIServer([]) as server:  # exhausted → HTTP 500 from the fake
        model = model_for(server, False)
        with pytest.raises(ModelError, match="HTTP 500"):
            await model.complete(MESSAGES)
        await model.aclose()
    turn_model = OpenAIModel("m", "http://127.0.0.1:1/v1", api_key="k")
    with pytest.raises(ModelError, match="no choices"):
        turn_model._turn({"choices": []})
