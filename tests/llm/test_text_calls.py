"""The text fallback's parsers, on replies recorded from real OpenAI-compatible servers.

Each row: the form of the reply, its content, and the call it holds (name and arguments)
or None. Rows named "recorded" are replies of llama-cpp-python's server (`python -m
llama_cpp.server`, llama-cpp-python 0.3.36) serving the embedded Qwen2.5-Coder 0.5B GGUF
under the chat format named; the others are the documented forms of the same families.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentls.llm.text_calls import parse_text_call

NAMES = {  # the offered tools and their parameters, in order
    "read_file": ["path", "start_line", "end_line"],
    "finish": ["summary"],
    "list_directory": ["path", "recursive"],
}
READ = ("read_file", {"path": "notes.txt"})

CASES: list[tuple[str, str | None, tuple[str, dict[str, Any]] | None]] = [
    # llama-cpp-python, chatml-function-calling, tool_choice auto, the run's 24 tools: the
    # reply issue 11 saw — a call begun and never written. No call (a bad reply).
    ("recorded: chatml-function-calling, 24 tools, native", "functions.read_file:", None),
    ("recorded: chatml-function-calling, read-only tools, native", "functions.finish:", None),
    # the same format when the arguments do follow (its prompt asks for `functions.NAME:`)
    (
        "functions.NAME then the arguments",
        'functions.read_file:\n{"path": "notes.txt"}',
        READ,
    ),
    ("OpenAI function style with to=", 'to=functions.read_file {"path": "notes.txt"}', READ),
    (
        "functions.NAME with a fenced object",
        'functions.read_file:\n```json\n{"path": "notes.txt"}\n```',
        READ,
    ),
    # Qwen2.5's own chat template (GGUF metadata, llama-cpp-python's default format) asks
    # for Hermes-style tags; servers without a tool parser hand them back as content.
    (
        "Qwen/Hermes tags",
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.txt"}}\n</tool_call>',
        READ,
    ),
    (
        "tags with text before and an unclosed tag",
        'I will read it.\n<tool_call>\n{"name": "finish", "arguments": {"summary": "ok"}}',
        ("finish", {"summary": "ok"}),
    ),
    (
        "tags naming an unknown tool (kept: the agent tells the model)",
        '<tool_call>{"name": "cat", "arguments": {"file": "notes.txt"}}</tool_call>',
        ("cat", {"file": "notes.txt"}),
    ),
    # llama-cpp-python chatml-function-calling, response_format json_object + schema
    # (the json protocol): the schema holds the reply to one call.
    (
        "recorded: chatml-function-calling, json_object with schema",
        '{ "name": "finish", "arguments": { "summary": "The launch code word is PELICAN." } }',
        ("finish", {"summary": "The launch code word is PELICAN."}),
    ),
    (
        "bare object in a code fence after prose",
        'Sure:\n```json\n{"name": "read_file", "arguments": {"path": "notes.txt"}}\n```',
        READ,
    ),
    (
        "Llama-3 style parameters",
        '{"name": "list_directory", "parameters": {"path": "."}}',
        ("list_directory", {"path": "."}),
    ),
    (
        "arguments as a JSON string (OpenAI's own wire form)",
        '{"type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"notes.txt\\"}"}}',
        READ,
    ),
    ("no arguments at all", '{"name": "finish"}', ("finish", {})),
    # recorded, native request: plain `chatml` ignores `tools`; the model writes Python
    (
        "recorded: chatml, native (a Python call, positional)",
        '```python\nfinish("The launch code word is PELICAN. Meeting moved to Thursday.")\n```'
        "\n\nThis summary indicates that the task has been completed by summarizing "
        "notes.txt, which reads now.",
        ("finish", {"summary": "The launch code word is PELICAN. Meeting moved to Thursday."}),
    ),
    (
        "Python call with keywords in a list (Llama 3.2 pythonic)",
        '[read_file(path="notes.txt", start_line=0)]',
        ("read_file", {"path": "notes.txt", "start_line": 0}),
    ),
    ("Python call with a nested call inside a string", 'finish(summary="f(x) = (1)")', ("finish", {"summary": "f(x) = (1)"})),
    ("Python call of no offered tool", 'print("notes.txt")', None),
    ("Python call with a variable, not a literal", "I will call read_file(path) next.", None),
    ("Python call with too many positional arguments", 'finish("a", "b")', None),
    ("a method call is no tool call", 'os.read_file("notes.txt")', None),
    # recorded, native request: the GGUF's own Qwen2.5-Coder template (the server's
    # default format) — a {name, arguments} object whose name is no tool is no call
    (
        "recorded: GGUF template, native (names no offered tool)",
        '```json\n{\n  "name": "Summary of notes.txt",\n  "arguments": {\n    "summary": '
        '"Summarize the content of notes.txt."\n  }\n}\n```',
        None,
    ),
    ("a JSON object that is no call", '{"path": "notes.txt", "lines": 2}', None),
    ("a bare object naming no offered tool", '{"name": "Ada", "arguments": {}}', None),
    ("prose", "The file says the launch code word is PELICAN.", None),
    ("empty", "", None),
    ("none", None, None),
    ("broken JSON", '{"name": "read_file", "arguments": {"path": ', None),
]


@pytest.mark.parametrize(("source", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_parse_text_call(
    source: str, text: str | None, expected: tuple[str, dict[str, Any]] | None
) -> None:
    call = parse_text_call(text, NAMES)
    if expected is None:
        assert call is None
        return
    assert call is not None
    assert (call.name, json.loads(call.arguments)) == expected
    assert call.id.startswith("call_") and len(call.id) > 8


def test_functions_form_with_unparsable_arguments_passes_them_on() -> None:
    """The agent rejects them with its own message (invalid JSON, at which character)."""
    call = parse_text_call("functions.read_file: {path: notes.txt}", NAMES)
    assert call is not None and call.name == "read_file"
    assert call.arguments == "{path: notes.txt}"


def test_first_call_wins_and_ids_differ() -> None:
    text = (
        '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\n'
        '<tool_call>{"name": "finish", "arguments": {"summary": "b"}}</tool_call>'
    )
    first, second = parse_text_call(text, NAMES), parse_text_call(text, NAMES)
    assert first is not None and second is not None
    assert first.name == "read_file" and json.loads(first.arguments) == {"path": "a"}
    assert first.id != second.id


def test_names_without_parameters_read_keyword_python_calls_only() -> None:
    names = {"finish"}
    keyword = parse_text_call('finish(summary="ok")', names)
    assert keyword is not None and json.loads(keyword.arguments) == {"summary": "ok"}
    assert parse_text_call('finish("ok")', names) is None
