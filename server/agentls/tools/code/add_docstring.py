"""The `add_docstring` tool: propose a docstring (Python) or JSDoc comment (TypeScript,
JavaScript) for a function, method or class found by name, replacing the one it has
(never writes by itself).

Must not know: the editor, LSP, the agent, tree-sitter.
"""

from __future__ import annotations

import ast
import re

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput
from agentls.tools.code.symbol_edit import find, indent_of, line_end, line_start, source
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class AddDocstringInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root.")
    symbol: str = Field(min_length=1, description="Name of the function, class or method (Class.method); the module's name for the module docstring.")
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
    With the module's name (or "module") as the symbol, the file gets a module docstring.
    """

    name = "add_docstring"
    category = "code"
    Input = AddDocstringInput

    def execute(self, input: AddDocstringInput, ctx: ToolContext) -> ProposalOutput:
        rel, data, _text = source(ctx, self.name, input.path)
        lines = _clean(input.docstring)
        module = _means_module(rel, input.symbol)
        if module is True:
            return propose(ctx, self.name, rel, data, self._module_doc(rel, data, lines))
        try:
            span = find(self.name, rel, data, input.symbol)
        except ToolError:
            if module is None:  # the module's name, and no definition has it
                return propose(ctx, self.name, rel, data, self._module_doc(rel, data, lines))
            raise
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

    def _module_doc(self, rel: str, data: bytes, lines: list[str]) -> bytes:
        """`data` with its module docstring (Python) or file comment set to `lines`."""
        if not any(lines):
            raise ToolError("validation", "the docstring is empty", self.name)
        text = data.decode("utf-8")
        head = _leading_comment_lines(text)  # a shebang, an encoding line, a licence header
        if rel.endswith((".py", ".pyi")):
            body = "\n".join(lines) if len(lines) == 1 else "\n".join([*lines, ""])
            doc = f'"""{body}"""\n'
            existing = _python_module_docstring(text)
            if existing is not None:
                start, end = existing
                new = text[:start] + doc + text[end:]
            else:
                rest = text[head:]
                new = text[:head] + doc + ("\n" if rest.strip() else "") + rest
        else:
            comment = "\n".join(["/**", *[f" * {line}".rstrip() for line in lines], " */"]) + "\n"
            new = text[:head] + comment + text[head:]
        if new == text:
            raise ToolError("runtime", f"{rel} already has exactly this docstring", self.name)
        return new.encode("utf-8")


def _means_module(rel: str, symbol: str) -> bool | None:
    """True when `symbol` names the module itself ("module", the file's name), None when it
    is the module's name (the module unless a definition has that name), else False."""
    wanted = symbol.strip().strip("`'\"").lower()
    name = rel.rsplit("/", 1)[-1].lower()
    if wanted in ("module", "<module>", "file", name, rel.lower()):
        return True
    return None if wanted == name.rsplit(".", 1)[0] else False


def _leading_comment_lines(text: str) -> int:
    """The offset after the shebang / encoding / comment lines that open the file."""
    offset = 0
    for line in text.splitlines(keepends=True):
        if not line.startswith(("#!", "# -*-", "# vim:", "// ", "#!/")) or line.strip() == "":
            break
        offset += len(line)
    return offset


def _python_module_docstring(text: str) -> tuple[int, int] | None:
    """The character range of the module docstring's whole line(s), or None."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        return None
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: first.lineno - 1])
    end = sum(len(line) for line in lines[: first.end_lineno or first.lineno])
    return start, end
