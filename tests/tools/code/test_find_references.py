"""find_references over a real index: the call sites of an imported function."""

from __future__ import annotations

from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.code.find_references import FindReferences

HELPER_SITES = [
    ("pkg/main.py", 0, 30),  # the import
    ("pkg/main.py", 6, 11),  # helper(2)
    ("pkg/main.py", 6, 23),  # helper(3)
    ("pkg/util.py", 3, 4),  # the definition
]


def where(out: Any) -> list[tuple[str, int, int]]:
    return sorted((loc.path, loc.line, loc.character) for loc in out.locations)


@pytest.mark.parametrize(
    ("raw", "how"),
    [
        ({"symbol": "helper", "path": "pkg/util.py", "line": 3}, "resolved"),
        ({"symbol": "helper", "path": "pkg/main.py", "line": 6, "character": 23}, "resolved"),
        ({"symbol": "helper"}, "fallback"),
    ],
)
def test_references_include_the_call_sites(
    call: Any, ctx: ToolContext, raw: dict[str, Any], how: str
) -> None:
    out = call(FindReferences, ctx, **raw)
    assert out.how == how
    assert where(out) == HELPER_SITES
    assert out.total == 4


def test_typescript_references(call: Any, ctx: ToolContext) -> None:
    out = call(FindReferences, ctx, symbol="add", path="web/math.ts", line=0)
    assert out.how == "resolved"
    assert where(out) == [("web/index.ts", 0, 9), ("web/index.ts", 3, 19), ("web/math.ts", 0, 16)]


def test_method_references_through_an_instance(call: Any, ctx: ToolContext) -> None:
    out = call(FindReferences, ctx, symbol="greet", path="pkg/util.py", line=9)
    assert where(out) == [("pkg/main.py", 5, 6), ("pkg/util.py", 9, 8)]


def test_unknown_name_finds_nothing(call: Any, ctx: ToolContext) -> None:
    out = call(FindReferences, ctx, symbol="nowhere_to_be_found")
    assert (out.how, out.locations, out.total) == ("none", [], 0)
