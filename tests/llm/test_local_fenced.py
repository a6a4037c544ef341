"""Code arguments in fenced blocks (llm/local/fenced.py): the grammar llama.cpp takes, the
reply read back into the call's arguments, the history written the same way, and the
tools whose code argument stays JSON."""

from __future__ import annotations

import importlib.util
import json

import pytest

from agentls.llm.base import CODE, plain_tools
from agentls.llm.local.fenced import call_text, fenced_tools, read
from agentls.llm.local.prompt import to_local_messages
from agentls.tools.registry import default_registry

REGISTRY = default_registry()


def spec(name: str) -> dict:
    tool = REGISTRY.get(name)
    assert tool is not None
    return {"type": "function", "function": {"name": name, "description": tool.description(),
                                             "parameters": tool.Input.model_json_schema()}}  # fmt: skip


def test_the_tools_with_a_code_argument_are_fenced_the_others_stay_json() -> None:
    fenced = fenced_tools([spec("write_file"), spec("replace_symbol"), spec("insert_symbol"), spec("edit_file"), spec("read_file")])
    assert {n: f.field for n, f in fenced.items()} == {"write_file": "content", "replace_symbol": "new", "insert_symbol": "new"}
    assert "content" not in fenced["write_file"].arguments["properties"]
    assert fenced["write_file"].arguments["required"] == ["path"]


def test_a_fenced_calls_naming_arguments_are_short_in_its_grammar() -> None:
    from agentls.llm.local.grammar import NAME_CHARS
    from agentls.llm.local.provider import LocalModel

    tools = [spec("replace_symbol")]
    grammar = LocalModel._schema(tools, None, fenced_tools(tools))["gbnf"]  # type: ignore[index]
    assert f"{{0,{NAME_CHARS}}}" in grammar  # symbol and path: bounded names, not 2,000 characters


def test_a_fenced_reply_is_read_back_into_the_arguments_and_written_the_same_way() -> None:
    fenced = fenced_tools([spec("write_file")])
    code = 'def f(s):\n    return "``" + s.strip("`")\n'
    text = call_text("write_file", {"path": "f.py", "content": code}, "content")
    assert text.startswith('{"name": "write_file", "arguments": {"path": "f.py"}}\n```python\n')
    assert read(text, fenced) == ("write_file", {"path": "f.py", "content": code})
    # the language tag written on the line after the fence (the 1.5B's "```\npython\ndef …")
    late = '{"name": "write_file", "arguments": {"path": "f.py"}}\n```\npython\n' + code + "```"
    assert read(late, fenced) == ("write_file", {"path": "f.py", "content": code})
    assert read('{"name": "write_file", "arguments": {"path": "f.py"}}\n```python\nunclosed', fenced) is None
    assert read('{"name": "read_file", "arguments": {"path": "f.py"}}', fenced) is None


def test_the_history_shows_a_fenced_call_as_the_model_writes_it() -> None:
    fenced = fenced_tools([spec("write_file")])
    args = {"path": "a.py", "content": "x = 1\n"}
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "write_file", "arguments": json.dumps(args)}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]  # fmt: skip
    local = to_local_messages(history, [spec("write_file")], fenced)
    assert local[2] == {"role": "assistant", "content": '{"name": "write_file", "arguments": {"path": "a.py"}}\n```python\nx = 1\n```'}
    assert "The content goes in a fenced block after the call." in local[0]["content"]
    (line,) = [x for x in local[0]["content"].splitlines() if x.startswith("- write_file(")]
    assert line.startswith("- write_file(path: string") and "content" not in line.split(" — ")[0]


def test_endpoints_never_see_our_schema_keywords() -> None:
    cleaned = json.dumps(plain_tools([spec("write_file")]))
    assert CODE not in cleaned and "x-" not in cleaned


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed")
def test_llama_cpp_takes_the_fenced_grammar() -> None:
    from llama_cpp import LlamaGrammar

    from agentls.llm.local.fenced import Fenced
    from agentls.llm.local.gbnf import fenced_grammar
    from agentls.llm.local.grammar import simplify, tool_call_schema

    fenced = {n: Fenced(f.tool, f.field, simplify(f.arguments)) for n, f in fenced_tools([spec("write_file")]).items()}
    grammar = fenced_grammar(tool_call_schema([spec("read_file")]), fenced)
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines())
    assert rules["root"] == "json-call | fenced-call0"
    assert rules["fenced-call0"].startswith(r'"{\"name\": \"write_file\", \"arguments\": " fenced-args0 "}\n```" [a-z]* "\n" fence-body "```"'[:60])
    assert LlamaGrammar.from_string(grammar, verbose=False) is not None
    # every tool fenced: no JSON branch at all
    assert dict(line.split(" ::= ", 1) for line in fenced_grammar(None, fenced).splitlines())["root"] == "fenced-call0"
