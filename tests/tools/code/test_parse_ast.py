"""parse_ast over a real index: symbols, the depth-limited tree, syntax errors."""

from __future__ import annotations

from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.code import parse_ast
from agentls.tools.code.parse_ast import ParseAst, render_tree


def test_python_outline(call: Any, ctx: ToolContext) -> None:
    out = call(ParseAst, ctx, path="pkg/util.py")
    assert (out.path, out.language, out.syntax_errors) == ("pkg/util.py", "python", [])
    assert [(s.name, s.kind, s.line) for s in out.symbols] == [
        ("helper", "function", 3),
        ("Greeter", "class", 8),
    ]
    assert [(c.name, c.kind, c.line) for c in out.symbols[1].children] == [("greet", "method", 9)]
    lines = out.tree.splitlines()
    assert lines[0].startswith("module 0:0-")
    assert '    identifier 3:4-3:10 "helper"' in lines
    assert len(lines) == out.node_count


@pytest.mark.parametrize(("depth", "deepest"), [(0, 0), (1, 1), (2, 2), (4, 4)])
def test_max_depth_limits_the_tree(call: Any, ctx: ToolContext, depth: int, deepest: int) -> None:
    tree = call(ParseAst, ctx, path="pkg/main.py", max_depth=depth).tree
    indents = [(len(line) - len(line.lstrip(" "))) // 2 for line in tree.splitlines()]
    assert max(indents) == deepest


def test_typescript_outline(call: Any, ctx: ToolContext) -> None:
    out = call(ParseAst, ctx, path="web/index.ts", max_depth=1)
    assert out.language == "typescript"
    assert [s.name for s in out.symbols] == ["total"]
    assert out.tree.splitlines()[1].startswith("  import_statement 0:0-")


def test_syntax_errors_are_reported(call: Any, fresh_ctx: ToolContext) -> None:
    (fresh_ctx.workspace.root / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    out = call(ParseAst, fresh_ctx, path="broken.py")
    assert out.syntax_errors
    assert out.syntax_errors[0].line == 0


def test_huge_trees_are_marked_truncated() -> None:
    node = {"type": "module", "start": [0, 0], "end": [1, 0], "truncated": True, "children": []}
    assert render_tree(node) == (["module 0:0-1:0"], 1, True)


def test_node_text_is_quoted() -> None:
    node = {"type": "string", "start": [0, 0], "end": [0, 5], "text": '"a\nb"'}
    assert render_tree(node)[0] == ['string 0:0-0:5 "\\"a\\nb\\""']


def test_default_depth(call: Any, ctx: ToolContext) -> None:
    tree = call(ParseAst, ctx, path="pkg/util.py").tree
    indents = {(len(line) - len(line.lstrip(" "))) // 2 for line in tree.splitlines()}
    assert max(indents) <= parse_ast.DEFAULT_DEPTH
