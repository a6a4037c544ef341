"""The code tools' failures: validation (malformed input), runtime (missing file, not an
analysed language, bad line), and paths outside the workspace (PathOutsideWorkspace,
which the executor reports as a permission error)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.code import TOOLS
from agentls.tools.code.dependency_graph import DependencyGraph
from agentls.tools.code.find_references import FindReferences
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition
from agentls.tools.code.parse_ast import ParseAst
from agentls.tools.permissions import Permission
from agentls.workspace import PathOutsideWorkspace

FIND_TOOLS = [FindSymbolDefinition, FindReferences]


def test_category_exports_the_tools() -> None:
    assert [t.name for t in TOOLS] == [
        "parse_ast",
        "find_symbol_definition",
        "find_references",
        "dependency_graph",
        "replace_symbol",
        "insert_symbol",
        "add_docstring",
        "rename_symbol",
    ]
    for tool in TOOLS:
        assert tool.category == "code"
        edits = tool.name in ("replace_symbol", "insert_symbol", "add_docstring", "rename_symbol")
        flag = Permission.FILESYSTEM_WRITE if edits else Permission.FILESYSTEM_READ
        assert tool.permissions == frozenset({flag})
        assert tool.schema()["description"]


@pytest.mark.parametrize(
    ("tool", "raw"),
    [
        (ParseAst, {}),
        (ParseAst, {"path": 3}),
        (ParseAst, {"path": ""}),
        (ParseAst, {"path": "a\x00.py"}),
        (ParseAst, {"path": "a.py", "max_depth": -1}),
        (ParseAst, {"path": "a.py", "max_depth": 99}),
        (ParseAst, {"path": "a.py", "max_depth": "deep"}),
        (ParseAst, {"path": "a.py", "extra": True}),
        *[
            (tool, raw)
            for tool in FIND_TOOLS
            for raw in (
                {},
                {"symbol": ""},
                {"symbol": "   "},
                {"symbol": 5},
                {"symbol": "a\x00b"},
                {"symbol": "x", "path": "p\x00.py"},
                {"symbol": "x", "line": 1},  # a line needs a path
                {"symbol": "x", "path": "a.py", "character": 1},  # a character needs a line
                {"symbol": "x", "path": "a.py", "line": -1},
                {"symbol": "x", "path": "a.py", "line": 0, "character": -2},
                {"symbol": "x", "path": "a.py", "line": "first"},
                {"symbol": "x" * 300},
            )
        ],
        (DependencyGraph, {"format": "svg"}),
        (DependencyGraph, {"format": 1}),
        (DependencyGraph, {"path": "\x00"}),
        (DependencyGraph, {"paths": ["a"]}),
    ],
)
def test_malformed_input_is_a_validation_error(tool: Any, raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        tool.Input(**raw)


@pytest.mark.parametrize(
    ("tool", "raw", "message"),
    [
        (ParseAst, {"path": "missing.py"}, "does not exist"),
        (ParseAst, {"path": "README.md"}, "not in a language"),
        (ParseAst, {"path": "pkg"}, "is a folder"),
        (FindSymbolDefinition, {"symbol": "x", "path": "missing.py"}, "does not exist"),
        (
            FindSymbolDefinition,
            {"symbol": "x", "path": "README.md", "line": 0},
            "not in a language",
        ),
        (
            FindSymbolDefinition,
            {"symbol": "helper", "path": "pkg/main.py", "line": 70},
            "past the end",
        ),
        (
            FindReferences,
            {"symbol": "helper", "path": "pkg/main.py", "line": 99, "character": 0},
            "past the end",
        ),
        (FindReferences, {"symbol": "x", "path": "nope/x.ts"}, "does not exist"),
        (DependencyGraph, {"path": "missing"}, "does not exist"),
        (DependencyGraph, {"path": "README.md"}, "not in a language"),
    ],
)
def test_runtime_errors(
    call: Any, ctx: ToolContext, tool: Any, raw: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolError) as info:
        call(tool, ctx, **raw)
    assert info.value.type == "runtime"
    assert info.value.tool == tool.name
    assert message in info.value.message


@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", "pkg/../../x.py"])
@pytest.mark.parametrize(
    ("tool", "extra"),
    [
        (ParseAst, {}),
        (FindSymbolDefinition, {"symbol": "x"}),
        (FindReferences, {"symbol": "x"}),
        (DependencyGraph, {}),
    ],
)
def test_paths_outside_the_workspace_are_refused(
    call: Any, ctx: ToolContext, tool: Any, extra: dict[str, Any], path: str
) -> None:
    with pytest.raises(PathOutsideWorkspace):
        call(tool, ctx, path=path, **extra)


def test_symlink_out_of_the_workspace_is_refused(
    call: Any, fresh_ctx: ToolContext, tmp_path_factory: Any
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.py").write_text("x = 1\n", encoding="utf-8")
    os.symlink(outside / "secret.py", fresh_ctx.workspace.root / "link.py")
    with pytest.raises(PathOutsideWorkspace):
        call(ParseAst, fresh_ctx, path="link.py")
