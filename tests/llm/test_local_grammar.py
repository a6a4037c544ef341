"""The constrained-output schema: one branch per offered tool, real tool schemas simplified."""

from __future__ import annotations

import importlib.util
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from agentls.llm.base import TASKS_SCHEMA
from agentls.llm.local.grammar import (
    MAX_STRING_LENGTH,
    NAME_CHARS,
    SchemaError,
    simplify,
    tool_call_schema,
    turn_schema,
)
from agentls.tools.registry import default_registry

REGISTRY = default_registry()
DROPPED = {"$ref", "$defs", "title", "default", "description", "pattern", "format", "examples"}


def spec(name: str, parameters: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def registry_specs() -> list[dict[str, Any]]:
    return [spec(t.name, t.Input.model_json_schema(), t.description()) for t in REGISTRY]


def walk(node: Any) -> list[dict[str, Any]]:
    """Every schema dict inside `node` (property maps are not schemas themselves)."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found.append(node)
        for key, value in node.items():
            if key == "properties":
                for sub in value.values():
                    found += walk(sub)
            elif isinstance(value, (dict, list)):
                found += walk(value)
    elif isinstance(node, list):
        for item in node:
            found += walk(item)
    return found


@pytest.mark.parametrize("tool", REGISTRY.names)
def test_every_registry_tool_has_a_strict_branch(tool: str) -> None:
    schema = tool_call_schema(registry_specs())
    branches = {b["properties"]["name"]["const"]: b for b in schema["anyOf"]}
    assert len(branches) == len(REGISTRY)
    branch = branches[tool]
    assert branch["required"] == ["name", "arguments"]
    assert branch["additionalProperties"] is False
    arguments = branch["properties"]["arguments"]
    source = REGISTRY.get(tool).Input.model_json_schema()  # type: ignore[union-attr]
    assert arguments["type"] == "object"
    assert set(arguments.get("properties", {})) == set(source.get("properties", {}))
    assert arguments.get("required", []) == source.get("required", [])
    for node in walk(arguments):
        assert not DROPPED & node.keys(), node
        if node.get("type") == "string" and "enum" not in node and "const" not in node:
            assert 0 < node["maxLength"] <= MAX_STRING_LENGTH, node


def test_arguments_that_name_a_file_or_symbol_are_short_and_code_is_not() -> None:
    schema = tool_call_schema(registry_specs())
    branches = {b["properties"]["name"]["const"]: b["properties"]["arguments"]["properties"] for b in schema["anyOf"]}
    assert branches["replace_symbol"]["symbol"]["maxLength"] == NAME_CHARS
    assert branches["replace_symbol"]["path"]["maxLength"] == NAME_CHARS
    assert branches["search_files"]["query"]["maxLength"] == NAME_CHARS
    assert branches["replace_symbol"]["new"]["maxLength"] == MAX_STRING_LENGTH
    assert branches["write_file"]["content"]["maxLength"] == MAX_STRING_LENGTH


class Mode(BaseModel):
    kind: Literal["fast", "slow"]
    label: str = Field(max_length=40, pattern=r"^[a-z]+$")


class WithRefs(BaseModel):
    mode: Mode
    modes: list[Mode] = Field(default_factory=list, max_length=3)
    note: str | None = None


def test_refs_are_inlined_and_bounds_kept() -> None:
    raw = WithRefs.model_json_schema()
    assert "$defs" in raw  # the case under test
    args = simplify(raw)
    assert not any("$ref" in n or "$defs" in n for n in walk(args))
    mode = args["properties"]["mode"]
    assert mode["properties"]["kind"] == {"enum": ["fast", "slow"], "type": "string"}
    assert mode["properties"]["label"] == {"type": "string", "maxLength": 40}  # pattern dropped
    assert args["properties"]["modes"]["items"]["required"] == ["kind", "label"]
    assert args["properties"]["modes"]["maxItems"] == 3
    note = args["properties"]["note"]["anyOf"]
    assert note == [{"type": "string", "maxLength": MAX_STRING_LENGTH}, {"type": "null"}]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (
            {"type": ["string", "null"], "maxLength": 10},
            {"anyOf": [{"type": "string", "maxLength": 10}, {"type": "null"}]},
        ),
        (
            {"type": "string", "maxLength": 99999},
            {"type": "string", "maxLength": MAX_STRING_LENGTH},
        ),
        ({"type": "string", "const": "x", "title": "X"}, {"type": "string", "const": "x"}),
        ({"type": "integer", "minimum": 0, "default": 3}, {"type": "integer"}),
    ],
)
def test_simplify_table(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert simplify(schema) == expected


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/$defs/Missing", "$defs": {}},
        {"$ref": "https://example.com/schema.json"},
        {
            "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}},
            "$ref": "#/$defs/N",
        },
    ],
    ids=["missing", "remote", "recursive"],
)
def test_unusable_refs_are_schema_errors(schema: dict[str, Any]) -> None:
    with pytest.raises(SchemaError):
        simplify(schema)


def test_one_tool_is_the_branch_itself_and_no_tools_is_an_error() -> None:
    one = tool_call_schema(
        [spec("finish", {"type": "object", "properties": {"summary": {"type": "string"}}})]
    )
    assert one["properties"]["name"] == {"const": "finish"}
    assert one["properties"]["arguments"]["additionalProperties"] is False
    no_params = tool_call_schema([spec("git_status", {})])
    assert no_params["properties"]["arguments"] == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    with pytest.raises(SchemaError):
        tool_call_schema([])


def test_turn_schema_per_kind_of_turn() -> None:
    planning = turn_schema(None, TASKS_SCHEMA)
    assert planning is not None
    assert planning["items"] == {"type": "string", "minLength": 1, "maxLength": 300}
    assert turn_schema(None) is None and turn_schema([], None) is None  # free text
    assert "anyOf" in turn_schema(registry_specs(), TASKS_SCHEMA)  # tools win: an acting turn


@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
)
def test_gbnf_uses_bounded_repetition_not_nesting() -> None:
    from agentls.llm.local.gbnf import schema_to_gbnf

    grammar = schema_to_gbnf(tool_call_schema(registry_specs()))
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines())
    assert len(rules["root"].split(" | ")) == len(REGISTRY)
    assert f"char{{0,{MAX_STRING_LENGTH}}}" in grammar
    assert "(char (char" not in grammar  # the nested form llama.cpp cannot parse past ~1000


def test_required_only_leaves_optional_arguments_out() -> None:
    from agentls.llm.local.grammar import required_only

    specs = {t["function"]["name"]: t for t in required_only(registry_specs())}
    assert set(specs["read_file"]["function"]["parameters"]["properties"]) == {"path"}
    assert set(specs["write_file"]["function"]["parameters"]["properties"]) == {"path", "content"}
    branch = tool_call_schema([specs["read_file"]])
    assert set(branch["properties"]["arguments"]["properties"]) == {"path"}


@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
)
def test_enum_values_with_quotes_and_backslashes_stay_one_literal() -> None:
    """A line of code offered as a choice (`return f"Hello, {name}!"`) is JSON-escaped; the
    library's converter left the backslash bare, which ended the GBNF literal early and
    made llama.cpp refuse the grammar."""
    from llama_cpp import llama_grammar as lg

    from agentls.llm.local.gbnf import schema_to_gbnf

    values = ['return f"Hello, {name}!"', "path\\to", "a\nb"]
    grammar = schema_to_gbnf({"type": "object", "properties": {"old": {"enum": values}}, "required": ["old"]})
    rule = dict(line.split(" ::= ", 1) for line in grammar.splitlines())["old"]
    assert rule == r'"\"return f\\\"Hello, {name}!\\\"\"" | "\"path\\\\to\"" | "\"a\\nb\""'
    assert lg.LlamaGrammar.from_string(grammar, verbose=False) is not None


@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
)
def test_a_prefixed_string_starts_with_its_literal_then_bounded_text() -> None:
    from agentls.llm.base import PREFIX
    from agentls.llm.local.gbnf import schema_to_gbnf

    schema = simplify({"type": "object", "properties": {"content": {"type": "string", PREFIX: 'from a import b\n"x"'}}})
    assert schema["properties"]["content"][PREFIX] == 'from a import b\n"x"'  # kept by simplify
    rule = dict(line.split(" ::= ", 1) for line in schema_to_gbnf(schema).splitlines())["content"]
    room = MAX_STRING_LENGTH - len('from a import b\n"x"')
    assert rule == rf'"\"" "from a import b\\n\\\"x\\\"" char{{0,{room}}} "\"" space'



@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
)
def test_a_lines_string_is_its_prefix_a_line_each_then_and_its_line_and_a_newline() -> None:
    from agentls.llm.base import PREFIX, THEN
    from agentls.llm.local.gbnf import schema_to_gbnf

    string = {"type": "string", PREFIX: "def test_f():\n    assert f(", THEN: ["\n    assert "]}
    grammar = schema_to_gbnf(simplify({"type": "object", "properties": {"content": string}}))
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines())
    assert rules["content"] == (
        r'"\"" "def test_f():\\n    assert f(" line-char{1,160} '
        r'"\\n    assert " line-char{1,160} "\\n" "\"" space'
    )
    assert rules["line-char"] == r'[^"\\\x7F\x00-\x1F] | "\\\""'  # no newline inside a line
