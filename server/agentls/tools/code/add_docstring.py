"""The `add_docstring` tool: propose a docstring (Python) or JSDoc comment (TypeScript,
JavaScript) for a function, method or class found by name, replacing the one it has
(never writes by itself).

Must not know: the editor, LSP, the agent, tree-sitter.
"""

from __future__ import annotations

import re

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput
from agentls.tools.code.symbol_edit import find, indent_of, line_end, line_start, source
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class AddDocstringInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root.")
    symbol: str = Field(min_length=1, description="Name of the function, class or method (Class.method).")
    docstring: str = Field(min_length=1, description="The documentation text, without quotes or comment marks.")


MAX_LINES = 40
#: a line of code, not prose: a small model sometimes pastes the function into its docstring
_CODE = re.compile(r"\s*(?:def|class|async def|function|export|import|return)\b[^.]*[(:{=]|\s*return\s")


def _clean(text: str) -> list[str]:
    text = text.strip()
    for mark in ('"""', "'''", "/**", "*/", '"', "'"):
        text = text.removeprefix(mark).removesuffix(mark).strip()
    lines = [line.strip().removeprefix("* ").rstrip() for line in text.split("\n")]
    return lines or [""]


class AddDocstring(ProposingTool):
    """Propose a docstring for a function, method or class, found by name.

    Python gets a triple-quoted docstring as the body's first line; TypeScript and
    JavaScript get a /** ... */ comment above the definition. An existing one is replaced.
    """

    name = "add_docstring"
    category = "code"
    Input = AddDocstringInput

    def execute(self, input: AddDocstringInput, ctx: ToolContext) -> ProposalOutput:
        rel, data, _text = source(ctx, self.name, input.path)
        span = find(self.name, rel, data, input.symbol)
        lines = _clean(input.docstring)
        if not any(lines):
            raise ToolError("validation", "the docstring is empty", self.name)
        if len(lines) > MAX_LINES or any(_CODE.match(line) for line in lines):
            raise ToolError(
                "validation",
                f"refused: the docstring should describe {input.symbol} in a few plain "
                f"sentences (at most {MAX_LINES} lines, no code), not repeat its code; "
                "no proposal was made",
                self.name,
            )
        if rel.endswith((".py", ".pyi")):
            if span.detail_end < 0 or line_start(data, span.detail_end) <= line_start(data, span.start):
                raise ToolError(
                    "runtime", f"{span.name} has its body on its first line; use replace_symbol", self.name
                )
            indent = indent_of(data, span.detail_end)
            body = "\n".join(lines) if len(lines) == 1 else "\n".join(
                [lines[0], *[indent + line if line else "" for line in lines[1:]], indent]
            )
            doc = f'{indent}"""{body}"""\n'.encode()
            if span.doc_start >= 0:
                begin, end = line_start(data, span.doc_start), line_end(data, span.doc_end)
            else:
                begin = end = line_start(data, span.detail_end)
        else:
            indent = indent_of(data, span.start)
            comment = [f"{indent}/**", *[f"{indent} * {line}".rstrip() for line in lines], f"{indent} */"]
            doc = ("\n".join(comment) + "\n").encode()
            begin = end = line_start(data, span.start)
            if 0 <= span.doc_start < span.start:
                begin = line_start(data, span.doc_start)
        new = data[:begin] + doc + data[end:]
        if new == data:
            raise ToolError("runtime", f"{span.name} already has exactly this docstring", self.name)
        return propose(ctx, self.name, rel, data, new)
