"""find_symbol_definition over a real index: by position, by name, fallbacks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentls.tools.base import ToolContext
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition


def where(out: Any) -> list[tuple[str, int, int]]:
    return [(loc.path, loc.line, loc.character) for loc in out.locations]


@pytest.mark.parametrize(
    ("raw", "how", "expected"),
    [
        # an imported function, by the call site (character given / found on the line)
        (
            {"symbol": "helper", "path": "pkg/main.py", "line": 6, "character": 11},
            "resolved",
            [("pkg/util.py", 3, 4)],
        ),
        (
            {"symbol": "helper", "path": "pkg/main.py", "line": 6},
            "resolved",
            [("pkg/util.py", 3, 4)],
        ),
        # a method through an instance built from an imported class
        (
            {"symbol": "greet", "path": "pkg/main.py", "line": 5},
            "resolved",
            [("pkg/util.py", 9, 8)],
        ),
        # a module attribute through an imported module
        ({"symbol": "run", "path": "app.py", "line": 2}, "resolved", [("pkg/main.py", 3, 4)]),
        # TypeScript across files
        (
            {"symbol": "add", "path": "web/index.ts", "line": 3},
            "resolved",
            [("web/math.ts", 0, 16)],
        ),
        # by name only
        ({"symbol": "Greeter"}, "fallback", [("pkg/util.py", 8, 6)]),
        ({"symbol": "Greeter.greet"}, "fallback", [("pkg/util.py", 9, 8)]),
        ({"symbol": "helper", "path": "app.py"}, "fallback", [("pkg/util.py", 3, 4)]),
        ({"symbol": "no_such_name"}, "none", []),
    ],
)
def test_definitions(
    call: Any, ctx: ToolContext, raw: dict[str, Any], how: str, expected: list[tuple[str, int, int]]
) -> None:
    out = call(FindSymbolDefinition, ctx, **raw)
    assert (out.how, where(out)) == (how, expected)
    assert out.total == len(expected)
    assert out.truncated is False


def test_location_shape(call: Any, ctx: ToolContext) -> None:
    out = call(FindSymbolDefinition, ctx, symbol="greet", path="pkg/main.py", line=5)
    (loc,) = out.locations
    assert loc.model_dump() == {
        "path": "pkg/util.py",
        "line": 9,
        "character": 8,
        "end_line": 9,
        "end_character": 13,
        "name": "greet",
        "kind": "method",
        "container": "Greeter",
    }


def test_position_without_the_symbol_falls_back_to_the_name(call: Any, ctx: ToolContext) -> None:
    out = call(FindSymbolDefinition, ctx, symbol="helper", path="pkg/main.py", line=3)
    assert where(out) == [("pkg/util.py", 3, 4)]
    assert "by name" in out.note


def test_position_naming_another_symbol_is_noted(call: Any, ctx: ToolContext) -> None:
    out = call(FindSymbolDefinition, ctx, symbol="helper", path="pkg/main.py", line=4, character=8)
    assert where(out) == [("pkg/util.py", 8, 6)]  # the position holds Greeter
    assert "'Greeter'" in out.note


def test_dotted_name_with_unknown_prefix_retries_the_last_part(call: Any, ctx: ToolContext) -> None:
    out = call(FindSymbolDefinition, ctx, symbol="somewhere.helper")
    assert where(out) == [("pkg/util.py", 3, 4)]


@given(symbol=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "\x00" not in s))
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_symbol_name_gets_an_answer(call: Any, ctx: ToolContext, symbol: str) -> None:
    out = call(FindSymbolDefinition, ctx, symbol=symbol, path="pkg/main.py", line=6)
    assert out.how in ("resolved", "fallback", "none")
    assert out.total == len(out.locations)
