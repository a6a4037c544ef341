"""@command (name, description, schema from the signature and docstring, definition errors),
argument checking with pydantic, `finish`, and the registry tools as commands (command.py,
builtin/system.py, builtin/tools.py)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from agentls.agent.builtin.system import SystemComponent
from agentls.agent.builtin.tools import ToolsComponent
from agentls.agent.command import Command, CommandDefinitionError, command
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import default_registry
from agentls.workspace import Workspace


class Calculator:
    def __init__(self, factor: int = 1) -> None:
        self.factor = factor

    @command
    def multiply(self, a: int, b: int) -> str:
        """Multiplies two numbers.

        Args:
            a: The first number
            b: The second number

        Returns:
            Result of multiplication
        """
        return str(a * b * self.factor)

    @command
    def search(
        self, query: str, limit: int = 5, kind: Literal["a", "b"] | None = None
    ) -> list[str]:
        """Search things.

        Args:
            query: What to look for,
                over several lines.
            limit: How many.
        """
        return [query] * limit


def test_name_description_and_schema_from_the_signature_and_docstring() -> None:
    cmd = Calculator.multiply
    assert isinstance(cmd, Command)
    assert cmd.name == "multiply"
    assert cmd.description == "Multiplies two numbers."
    assert cmd.parameters == {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "The first number"},
            "b": {"type": "integer", "description": "The second number"},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    assert cmd.spec() == {
        "type": "function",
        "function": {
            "name": "multiply",
            "description": "Multiplies two numbers.",
            "parameters": cmd.parameters,
        },
    }


def test_schema_derived_from_annotations_and_args_section() -> None:
    schema = Calculator.search.parameters
    assert schema["required"] == ["query"]
    props = schema["properties"]
    assert props["query"] == {
        "type": "string",
        "description": "What to look for, over several lines.",
    }
    assert props["limit"] == {"type": "integer", "description": "How many.", "default": 5}
    assert props["kind"]["anyOf"] == [{"enum": ["a", "b"], "type": "string"}, {"type": "null"}]


def test_a_method_command_binds_to_its_instance() -> None:
    bound = Calculator(factor=10).multiply
    assert isinstance(bound, Command)
    assert bound(a=2, b=3) == "60"
    assert Calculator(factor=1).multiply(a=2, b=3) == "6"


def test_options_override_name_and_description() -> None:
    @command(name="shout", description="Say it loud.")
    def speak(text: str) -> str:
        """Ignored."""
        return text.upper()

    assert (speak.name, speak.description, speak(text="hi")) == ("shout", "Say it loud.", "HI")


def _untyped(a, b: int):  # type: ignore[no-untyped-def]
    return a


def _star_args(a: int, *rest: int) -> None: ...
def _star_kwargs(a: int, **more: int) -> None: ...
def _positional_only(a: int, /) -> None: ...
def _unresolved(a: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821


@pytest.mark.parametrize(
    ("fn", "fragment"),
    [
        (_untyped, "'a' has no annotation"),
        (_star_args, "variadic positional parameter 'rest' cannot be given by name"),
        (_star_kwargs, "variadic keyword parameter 'more' cannot be given by name"),
        (_positional_only, "positional-only parameter 'a' cannot be given by name"),
        (_unresolved, "bad annotations"),
    ],
)
def test_a_signature_a_model_cannot_fill_is_a_definition_error(
    fn: Any, fragment: str
) -> None:
    with pytest.raises(CommandDefinitionError) as info:
        command(fn)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"query": "x"}, None),
        ({"query": "x", "limit": 3, "kind": "a"}, None),
        ({"query": "x", "kind": None}, None),
        ({}, "'query': Field required"),
        ({"query": 1}, "'query': Input should be a valid string (got 1)"),
        (
            {"query": "x", "limit": "many"},
            "'limit': Input should be a valid integer, unable to parse string as an integer "
            "(got 'many')",
        ),
        ({"query": "x", "kind": "c"}, "'kind': Input should be 'a' or 'b' (got 'c')"),
        ({"query": "x", "other": 1}, "'other': Extra inputs are not permitted"),
    ],
)
def test_check_arguments(arguments: dict[str, Any], problem: str | None) -> None:
    assert Calculator.search.check(arguments) == problem


def test_finish_offers_a_required_non_empty_summary() -> None:
    finish = SystemComponent.finish
    assert finish.parameters == {
        "type": "object",
        "properties": {
            "summary": {
                "type": "string",
                "minLength": 1,
                "description": "What was done (or why it cannot be done), for the user.",
            }
        },
        "required": ["summary"],
        "additionalProperties": False,
    }
    # the keys in the order a hosted model has always read them (not pydantic's sorted order)
    assert list(finish.parameters) == ["type", "properties", "required", "additionalProperties"]
    assert finish.description.startswith("Finish the current task: call this when it is done")


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"summary": "Done."}, None),
        ({}, "'summary': Field required"),
        ({"summary": ""}, "'summary': String should have at least 1 character (got '')"),
        ({"summary": ["a"]}, "'summary': Input should be a valid string (got ['a'])"),
        ({"summary": "x", "why": "y"}, "'why': Extra inputs are not permitted"),
    ],
)
def test_finish_arguments_are_checked(arguments: dict[str, Any], problem: str | None) -> None:
    assert SystemComponent.finish.check(arguments) == problem


# --- tools as commands ------------------------------------------------------------------
def _tools(tmp_path: Any, mode: str) -> tuple[dict[str, Command], ToolContext]:
    registry = default_registry()
    ctx = ToolContext(
        workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode(mode), run_id="r"
    )
    component = ToolsComponent(registry, ToolExecutor(registry), ctx)
    return {c.name: c for c in component.get_commands()}, ctx


@pytest.mark.parametrize(
    ("mode", "enabled", "disabled"),
    [
        ("read-only", ["read_file", "search_files", "finish"], ["write_file", "run_command"]),
        ("dev", ["read_file", "write_file", "edit_file"], ["run_command"]),
        ("ci", ["read_file", "run_command"], ["write_file"]),
        ("full", ["read_file", "write_file", "run_command"], []),
    ],
)
def test_every_tool_is_a_command_filtered_by_mode(
    tmp_path: Any, mode: str, enabled: list[str], disabled: list[str]
) -> None:
    commands, _ = _tools(tmp_path, mode)
    assert set(commands) == set(default_registry().names)
    for name in enabled:
        assert commands[name].is_enabled(), name
    for name in disabled:
        assert not commands[name].is_enabled()
        assert f"which mode {mode!r} does not grant" in (commands[name].disabled_reason or "")
    spec = commands["read_file"].spec()["function"]
    assert spec["parameters"]["properties"]["path"]["type"] == "string"
    assert spec["description"].startswith("Read")


async def test_a_forbidden_tool_still_answers_with_the_executors_permission_error(
    tmp_path: Any,
) -> None:
    commands, _ = _tools(tmp_path, "read-only")
    result = await commands["write_file"](path="x.txt", content="hi")
    assert isinstance(result, ToolResult) and not result.ok
    assert result.error is not None and result.error["type"] == "permission"
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"path": "a"}, None),
        ({}, "'path': Field required"),
        ({"path": "a", "x": 1}, "'x': Extra inputs"),
    ],
)
def test_tool_arguments_are_checked_with_the_tools_model(
    tmp_path: Any, arguments: dict[str, Any], fragment: str | None
) -> None:
    commands, _ = _tools(tmp_path, "dev")
    problem = commands["read_file"].check(arguments)
    assert (problem is None) if fragment is None else (fragment in (problem or ""))
