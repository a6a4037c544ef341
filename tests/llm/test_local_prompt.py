"""The chat history as plain system/user/assistant text for a local chat template."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentls.llm.local.prompt import CALL_FORMAT, NEXT_STEP, signature, to_local_messages

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file.\n\nMore details the model need not see.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "start_line": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "mode": {"enum": ["a", "b"]},
            },
            "required": ["path"],
        },
    },
}
CALL = {
    "id": "c1",
    "type": "function",
    "function": {"name": "read_file", "arguments": '{"path": "a.txt"}'},
}


def test_signature() -> None:
    assert (
        signature(READ)
        == '- read_file(path: string, start_line?: integer|null, mode?: "a"|"b") — Read a file.'
    )


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        (
            [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
            [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        ),
        (  # an assistant tool call becomes the JSON the grammar makes; its result a user message
            [
                {"role": "user", "content": "go"},
                {"role": "assistant", "content": None, "tool_calls": [CALL]},
                {"role": "tool", "tool_call_id": "c1", "content": "hello"},
            ],
            [
                {"role": "user", "content": "go"},
                {
                    "role": "assistant",
                    "content": json.dumps({"name": "read_file", "arguments": {"path": "a.txt"}}),
                },
                {"role": "user", "content": f"Result of read_file: hello\n\n{NEXT_STEP}"},
            ],
        ),
        (  # consecutive user messages merge; a late system message becomes user text
            [
                {"role": "user", "content": "a"},
                {"role": "system", "content": "b"},
                {"role": "tool", "tool_call_id": "zz", "content": "c"},
            ],
            [{"role": "user", "content": f"a\n\n[system] b\n\nResult of the tool: c\n\n{NEXT_STEP}"}],
        ),
        (  # unparsable arguments are kept as text; content parts are joined
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}],
                },
                {
                    "role": "assistant",
                    "content": "hmm",
                    "tool_calls": [{"id": "c2", "function": {"name": "f", "arguments": "{bad"}}],
                },
            ],
            [
                {"role": "user", "content": "xy"},
                {"role": "assistant", "content": 'hmm\n{"name": "f", "arguments": "{bad"}'},
            ],
        ),
    ],
    ids=["plain", "tool-round-trip", "merge", "odd-content"],
)
def test_history_conversion(history: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    assert to_local_messages(history, None) == expected


def test_tools_are_listed_in_the_one_system_message() -> None:
    out = to_local_messages(
        [
            {"role": "system", "content": "S1"},
            {"role": "system", "content": "S2"},
            {"role": "user", "content": "U"},
        ],
        [READ],
    )
    assert [m["role"] for m in out] == ["system", "user"]
    system = out[0]["content"]
    assert system.startswith("S1\n\nS2\n\nTools you can call:\n- read_file(")
    assert system.endswith(CALL_FORMAT)
    assert "More details" not in system
    assert {m["role"] for m in to_local_messages([{"role": "user", "content": "U"}], [READ])} == {
        "system",
        "user",
    }
