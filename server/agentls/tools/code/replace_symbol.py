"""The `replace_symbol` tool: propose a function, method or class's whole new definition,
or a module-level variable's new assignment, found by name (never writes by itself).

Must not know: the editor, LSP, the agent, tree-sitter.
"""

from __future__ import annotations

import re

from pydantic import Field

from agentls.analysis.syntax import ASSIGNMENT_KINDS, SymbolSpan, symbol_spans
from agentls.tools.base import CODE_FIELD, ToolContext, ToolError, ToolInput
from agentls.tools.code.symbol_edit import (
    decorated_start,
    find,
    indent_of,
    line_end,
    line_start,
    reindent,
    source,
)
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class ReplaceSymbolInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root.")
    symbol: str = Field(min_length=1, description="Name of the function, class or method (Class.method), or of a module-level variable.")
    new: str = Field(min_length=1, description="The complete new definition, from its first line (def/class/function) to its end.", json_schema_extra=CODE_FIELD)


class ReplaceSymbol(ProposingTool):
    """Propose replacing a whole function, method or class, found by name, with a new definition.

    Give the complete new definition (signature and body); it is indented to fit where the
    old one was. Easier than edit_file for changing a function: no need to copy its old text.
    A module-level variable (`TIMEOUT = 30`) is replaced by its new assignment; a bare new
    value (`60`) keeps the old statement's left-hand side.
    The result says the change is in place and shows the new definition.
    """

    name = "replace_symbol"
    category = "code"
    Input = ReplaceSymbolInput

    def execute(self, input: ReplaceSymbolInput, ctx: ToolContext) -> ProposalOutput:
        rel, data, _text = source(ctx, self.name, input.path)
        span = find(self.name, rel, data, input.symbol, assignments=True)
        new_text = input.new.strip("\n")
        short = span.name.rsplit(".", 1)[-1]
        if span.kind in ASSIGNMENT_KINDS:
            new_text = assignment(data, span, new_text)
        defined = symbol_spans(rel, reindent(new_text, "").encode("utf-8"), span.kind in ASSIGNMENT_KINDS)
        if defined and short not in {d.name.rsplit(".", 1)[-1] for d in defined}:
            # the 1.5B once put the test file's text in place of the function it was to fix
            names = ", ".join(dict.fromkeys(d.name for d in defined))
            raise ToolError(
                "runtime",
                f"refused: `new` must define {short} (the definition it replaces), but it defines {names}; "
                "no proposal was made",
                self.name,
                path=rel,
            )
        if not defined:
            whole = f"`{short} = <new value>`" if span.kind in ASSIGNMENT_KINDS else "the whole new definition (its def/class/function line and body)"
            raise ToolError(
                "runtime",
                f"refused: `new` must be {whole}, not {new_text[:60]!r}; no proposal was made",
                self.name,
                path=rel,
            )
        begin = line_start(data, span.start)
        if new_text.lstrip().startswith("@"):  # the new text brings its decorators
            begin = decorated_start(data, span.start)
        end = line_end(data, span.end)
        replacement = reindent(new_text, indent_of(data, span.start), rel.endswith((".py", ".pyi"))).encode("utf-8")
        new = data[:begin] + replacement + data[end:]
        if new == data:
            raise ToolError(
                "runtime", f"{span.name} in {rel} already reads exactly like that; nothing to change", self.name
            )
        return propose(ctx, self.name, rel, data, new)


#: A statement binding a name: `X = …`, `X: int = …` (not `X == …`).
_BINDS = re.compile(r"\s*[A-Za-z_][\w.]*\s*(?::[^=]*)?=(?!=)")


def assignment(data: bytes, span: SymbolSpan, new: str) -> str:
    """The new statement for the module variable `span`: `new` when it binds the name
    (`TIMEOUT = 60`), else the old statement's left-hand side with `new` as its value (a
    model asked for the variable's new definition often writes only the value)."""
    old = data[span.start : span.end].decode("utf-8", "replace")
    if _BINDS.match(new) or "\n" in new.strip():
        return new  # an assignment (of this name or, refused below, of another)
    stem = re.match(rf"{re.escape(span.name)}\s*(?::[^=]*)?=\s*", old)
    return stem.group(0) + new.strip() if stem else new
