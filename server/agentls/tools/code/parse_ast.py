"""The `parse_ast` tool: a compact, depth-limited outline of one file's syntax tree.

The model gets the file's symbols (classes, functions, methods with their lines), the
syntax tree as indented text lines (`type line:col-line:col "text"`, named nodes only,
text shown for leaves and for nodes at the depth limit) and the parse errors.
Must not know: tree-sitter (the index parses), LSP.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from agentls.analysis.syntax import syntax_errors
from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.code.fields import PathText
from agentls.tools.code.index_access import analysed_file
from agentls.tools.permissions import Permission

DEFAULT_DEPTH = 3
MAX_DEPTH = 12


class ParseAstInput(ToolInput):
    path: PathText = Field(description="The file to parse, relative to the workspace root.")
    max_depth: int = Field(
        default=DEFAULT_DEPTH, ge=0, le=MAX_DEPTH, description="How deep to show the syntax tree."
    )


class OutlineSymbol(ToolOutput):
    name: str
    kind: str
    detail: str = ""
    line: int
    children: list[OutlineSymbol] = []


class SyntaxProblem(ToolOutput):
    line: int
    character: int
    message: str


class ParseAstOutput(ToolOutput):
    path: str
    language: str
    symbols: list[OutlineSymbol]
    tree: str = Field(
        description="One named node per line, indented by depth: type start-end text."
    )
    node_count: int
    truncated: bool = Field(description="True when the tree had more nodes than shown.")
    syntax_errors: list[SyntaxProblem]


def _point(raw: Any) -> str:
    line, column = raw
    return f"{line}:{column}"


def render_tree(node: dict[str, Any]) -> tuple[list[str], int, bool]:
    """Indented lines for an outline node; the node count; whether anything was cut."""
    lines: list[str] = []
    truncated = False

    def visit(item: dict[str, Any], depth: int) -> None:
        nonlocal truncated
        text = f"{'  ' * depth}{item['type']} {_point(item['start'])}-{_point(item['end'])}"
        if "text" in item:
            text += " " + json.dumps(item["text"], ensure_ascii=False)
        lines.append(text)
        truncated = truncated or bool(item.get("truncated"))
        for child in item.get("children", ()):
            visit(child, depth + 1)

    visit(node, 0)
    return lines, len(lines), truncated


class ParseAst(Tool):
    """Show the structure of one source file: its symbols and its syntax tree to a depth.

    Use it to understand a file's shape before reading or editing it. Lines and columns
    are 0-based. Raise `max_depth` to see deeper; lower it for big files.
    """

    name = "parse_ast"
    category = "code"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = ParseAstInput
    Output = ParseAstOutput
    timeout_s = 120.0  # the first call may build the index

    def execute(self, input: ParseAstInput, ctx: ToolContext) -> ParseAstOutput:
        index, rel = analysed_file(ctx, self.name, input.path)
        try:
            outline = index.outline(rel, input.max_depth)
        except FileNotFoundError as exc:
            raise ToolError("runtime", f"{input.path!r} does not exist", self.name) from exc
        tree = outline.get("tree")
        if tree is None:
            raise ToolError("runtime", f"{input.path!r} could not be parsed", self.name)
        lines, count, truncated = render_tree(tree)
        spec = index.spec(rel)
        data = ctx.workspace.read_bytes(rel) or b""
        problems = syntax_errors(rel, data) or []
        return ParseAstOutput(
            path=rel,
            language=spec.name if spec else "",
            symbols=[OutlineSymbol.model_validate(s) for s in outline.get("symbols", ())],
            tree="\n".join(lines),
            node_count=count,
            truncated=truncated,
            syntax_errors=[SyntaxProblem(line=a, character=b, message=m) for a, b, m in problems],
        )
