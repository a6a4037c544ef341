"""OpenAIModel's tool-call protocols and fallbacks (toolProtocol), over real HTTP against
the scripted OpenAI-compatible server: which request shape each turn sends, what is read
back, when the endpoint's protocol changes and what is said about it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentls.llm.base import TASKS_SCHEMA, ModelError
from agentls.llm.openai_provider import OpenAIModel
from agentls.llm.tool_protocol import ProtocolChooser, call_schema
from tests.llm.fake_openai import FakeOpenAIServer
from tests.llm.test_openai_provider import FINISH, MESSAGES, READ_FILE

TOOLS = [READ_FILE, FINISH]
CALL_JSON = '{"name": "read_file", "arguments": {"path": "notes.txt"}}'
NATIVE_CALL = {"id": "call_n", "name": "read_file", "arguments": '{"path": "notes.txt"}'}
HISTORY = [  # a tool call and its result, as the agent keeps them
    *MESSAGES,
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "read_file", "arguments": '{"path": "notes.txt"}'}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": '{"ok": true, "output": "PELICAN"}'},
]  # fmt: skip


def model_for(server: FakeOpenAIServer, protocol: str = "auto", **kwargs: Any) -> OpenAIModel:
    return OpenAIModel(
        "m", server.base_url, api_key="k", max_retries=0, tool_protocol=protocol, **kwargs
    )


def shape_of(body: dict[str, Any]) -> str:
    if "tools" in body:
        return "native"
    return str((body.get("response_format") or {}).get("type", "text"))


def args(turn: Any) -> list[tuple[str, Any]]:
    return [(c.name, json.loads(c.arguments)) for c in turn.tool_calls]


async def test_auto_moves_on_after_replies_without_a_call_and_keeps_what_worked() -> None:
    script = [
        {"content": "functions.read_file:"},  # issue 11's reply: no call (a slip, once)
        {"content": "functions.read_file:"},  # twice in a row: native does not work here
        {"content": CALL_JSON},
        {"content": '{"name": "finish", "arguments": {"summary": "done"}}'},
        {"content": '["Check the summary"]'},  # a planning turn on the json protocol
    ]
    with FakeOpenAIServer(script) as server:
        model = model_for(server)
        slip = await model.complete(HISTORY, tools=TOOLS)
        first = await model.complete(HISTORY, tools=TOOLS)
        second = await model.complete(HISTORY, tools=TOOLS)
        third = await model.complete(HISTORY, tools=TOOLS)
        plan = await model.complete(HISTORY, json_schema=TASKS_SCHEMA)
        await model.aclose()
    assert slip.tool_calls == [] and slip.notice is None
    assert first.tool_calls == [] and first.content == "functions.read_file:"
    assert first.notice is not None and "trying json_schema" in first.notice
    assert "2 replies in a row" in first.notice
    assert args(second) == [("read_file", {"path": "notes.txt"})] and second.content is None
    assert second.notice is not None and "work as json_schema" in second.notice
    assert second.raw["toolProtocol"] == "json"
    assert args(third) == [("finish", {"summary": "done"})] and third.notice is None
    assert plan.content == '["Check the summary"]' and plan.tool_calls == []
    shapes = [shape_of(b) for b in server.requests]
    assert shapes == ["native", "native", "json_schema", "json_schema", "json_schema"]
    _, native, json_turn, _, plan_body = server.requests
    assert native["tools"] == TOOLS and native["tool_choice"] == "auto"
    assert native["messages"] == HISTORY  # the native shape is the contract, unchanged
    fmt = json_turn["response_format"]["json_schema"]
    assert fmt["schema"] == call_schema(TOOLS)
    assert "maxLength" not in json.dumps(fmt["schema"])  # servers expand it into rules
    roles = [m["role"] for m in json_turn["messages"]]
    assert "tool" not in roles and roles[0] == "system"
    assert "read_file(path: string)" in json_turn["messages"][0]["content"]
    assert "Result of read_file" in json.dumps(json_turn["messages"])
    assert plan_body["response_format"]["json_schema"]["schema"]["type"] == "array"


async def test_off_native_one_reply_without_a_call_moves_on() -> None:
    script = [{"content": "no"}, {"content": "no"}, {"content": "ignored the schema"}, {"content": "x"}]
    with FakeOpenAIServer(script) as server:
        model = model_for(server)
        for _ in range(4):
            await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    shapes = [shape_of(b) for b in server.requests]
    assert shapes == ["native", "native", "json_schema", "json_object"]
    assert model.protocol.shape == "text" and not model.protocol.settled


@pytest.mark.parametrize("status", [500, 422, 400])
async def test_a_refused_shape_is_retried_in_the_next_one_within_the_turn(status: int) -> None:
    script = [
        {"status": status, "message": "Input should be 'text' or 'json_object'"},
        {"content": CALL_JSON},
    ]
    with FakeOpenAIServer(script) as server:
        model = model_for(server, "json")
        turn = await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert args(turn) == [("read_file", {"path": "notes.txt"})]
    assert [shape_of(b) for b in server.requests] == ["json_schema", "json_object"]
    assert server.requests[1]["response_format"]["schema"] == call_schema(TOOLS)
    assert turn.notice is not None
    assert f"refused (HTTP {status}" in turn.notice and "work as json_object" in turn.notice


async def test_auto_walks_every_shape_on_5xx_and_fails_with_the_last_error() -> None:
    with FakeOpenAIServer([{"status": 503, "message": "overloaded"}] * 4) as server:
        model = model_for(server)
        with pytest.raises(ModelError, match="HTTP 503: overloaded"):
            await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert [shape_of(b) for b in server.requests] == ["native", "json_schema", "json_object", "text"]
    # no shape answered, so none was refused for good: the next turn starts native again
    assert model.protocol.shape == "native"


async def test_auth_and_missing_model_errors_are_not_shape_refusals() -> None:
    with FakeOpenAIServer([{"status": 404, "message": "no such model"}]) as server:
        model = model_for(server)
        with pytest.raises(ModelError, match="404"):
            await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert len(server.requests) == 1


async def test_native_reply_with_the_call_in_its_text_is_read_and_native_kept() -> None:
    tagged = f"<tool_call>\n{CALL_JSON}\n</tool_call>"
    with FakeOpenAIServer([{"content": tagged}, {"content": "Let me think."}]) as server:
        model = model_for(server)
        turn = await model.complete(MESSAGES, tools=TOOLS)
        again = await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert args(turn) == [("read_file", {"path": "notes.txt"})]
    assert turn.raw["toolProtocol"] == "native"
    assert turn.notice is not None and "reading them from the text" in turn.notice
    # native has worked: a later reply without a call is the model's slip, not the protocol's
    assert again.tool_calls == [] and again.notice is None
    assert [shape_of(b) for b in server.requests] == ["native", "native"]


async def test_native_setting_is_the_contract_exactly() -> None:
    script = [{"content": CALL_JSON}, {"content": "no call"}, {"status": 500, "message": "x"}]
    with FakeOpenAIServer(script) as server:
        model = model_for(server, "native")
        first = await model.complete(MESSAGES, tools=TOOLS)
        second = await model.complete(MESSAGES, tools=TOOLS)
        with pytest.raises(ModelError, match="HTTP 500"):
            await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert first.tool_calls == [] and first.content == CALL_JSON  # no reading from text
    assert second.tool_calls == [] and (first.notice, second.notice) == (None, None)
    assert [shape_of(b) for b in server.requests] == ["native"] * 3


async def test_a_native_call_is_taken_whatever_shape_was_asked() -> None:
    with FakeOpenAIServer([{"content": None, "tool_calls": [NATIVE_CALL]}]) as server:
        model = model_for(server, "text")
        turn = await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert [(c.id, c.name) for c in turn.tool_calls] == [("call_n", "read_file")]
    assert shape_of(server.requests[0]) == "text"


async def test_text_protocol_reads_functions_form() -> None:
    reply = 'functions.finish:\n{"summary": "The code word is PELICAN."}'
    with FakeOpenAIServer([{"content": reply}]) as server:
        model = model_for(server, "text")
        turn = await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert args(turn) == [("finish", {"summary": "The code word is PELICAN."})]
    (body,) = server.requests
    assert "tools" not in body and "response_format" not in body


async def test_planning_schema_refused_is_retried_without_it() -> None:
    script = [{"status": 400, "message": "response_format unsupported"}, {"content": "[]"}]
    with FakeOpenAIServer(script) as server:
        model = model_for(server, "json")
        turn = await model.complete(MESSAGES, json_schema=TASKS_SCHEMA)
        await model.aclose()
    assert turn.content == "[]"
    assert [shape_of(b) for b in server.requests] == ["json_schema", "text"]
    assert model.protocol.shape == "json_schema"  # a planning refusal changes nothing


async def test_failed_stream_is_retried_unstreamed_and_streaming_stays_off() -> None:
    call = [NATIVE_CALL]
    script = [{"status": 500, "message": "stream broke"}, {"tool_calls": call}, {"tool_calls": call}]
    with FakeOpenAIServer(script) as server:
        model = model_for(server, stream=True)
        first = await model.complete(MESSAGES, tools=TOOLS)
        second = await model.complete(MESSAGES, tools=TOOLS)
        await model.aclose()
    assert [c.name for c in first.tool_calls] == [c.name for c in second.tool_calls] == ["read_file"]
    assert [bool(b.get("stream")) for b in server.requests] == [True, False, False]
    assert first.notice is not None and "streaming off" in first.notice
    assert second.notice is None


def test_unknown_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="auto, native, json, text"):
        ProtocolChooser("xml")


async def test_a_run_through_a_failing_native_endpoint_completes_and_says_so_once(
    tmp_path: Any,
) -> None:
    from agentls.agent.agent import Agent, RunSettings
    from agentls.tools.proposals import ProposalStore
    from agentls.workspace import Workspace

    (tmp_path / "notes.txt").write_text("The code word is PELICAN.\n", "utf-8")
    finish = '{"name": "finish", "arguments": {"summary": "The code word is PELICAN."}}'
    script = [
        {"content": '["Summarise notes.txt"]'},
        {"content": "functions.read_file:"},
        {"content": "functions.read_file:"},
        {"content": finish},
        *[{"content": "[]"}] * 3,
    ]
    events: list[dict[str, Any]] = []
    with FakeOpenAIServer(script) as server:
        model = model_for(server)
        workspace = Workspace(str(tmp_path))
        agent = Agent(
            workspace=workspace,
            model=model,
            settings=RunSettings(mode="read-only", approval="never", max_steps=5),
            proposals=ProposalStore(workspace),
            on_event=lambda event: events.append(event.to_dict()),
        )
        state = await agent.run("Summarise notes.txt")
        await model.aclose()
    assert state.status == "completed", state.error
    assert state.summary == "The code word is PELICAN.\n(Answered from notes.txt; no file changed.)"
    assert (state.verification or {}).get("verified") is True  # PELICAN is in notes.txt
    notices = [e["notice"] for e in events if e["kind"] == "status" and e.get("notice")]
    assert len(notices) == 2 and "trying json_schema" in notices[0]
    assert "work as json_schema" in notices[1]
    bad = [e for e in events if e["kind"] == "error" and e.get("type") == "bad_reply"]
    assert len(bad) == 2  # the native replies were fed back as bad replies, as the contract says
