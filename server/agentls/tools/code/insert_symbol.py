"""The `insert_symbol` tool: propose a new function, method or class, placed after a named
one or at the end of the file (never writes by itself).

Must not know: the editor, LSP, the agent, tree-sitter.
"""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from agentls.analysis.syntax import symbol_spans, syntax_errors
from agentls.tools.base import CODE_FIELD, ToolContext, ToolError, ToolInput
from agentls.tools.code.symbol_edit import find, indent_of, line_end, reindent, source
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class InsertSymbolInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root (the file must exist).")
    new: str = Field(min_length=1, description="The complete new definition (def/class/function ...).", json_schema_extra=CODE_FIELD)
    after: str | None = Field(
        default=None,
        description="Name of the function, class or method (Class.method) to put it after; omit to append at the end of the file.",
    )


class InsertSymbol(ProposingTool):
    """Propose adding a new function, method or class to an existing file.

    It goes right after the definition named `after` (with that one's indentation, so
    after a method it becomes a method of the same class), or at the end of the file.
    """

    name = "insert_symbol"
    category = "code"
    Input = InsertSymbolInput

    def execute(self, input: InsertSymbolInput, ctx: ToolContext) -> ProposalOutput:
        rel, data, _text = source(ctx, self.name, input.path)
        python = rel.endswith((".py", ".pyi"))
        alone = reindent(input.new, "", python).encode("utf-8")
        if not symbol_spans(rel, alone) and not syntax_errors(rel, alone):  # (errors: said below)
            raise ToolError(
                "runtime",
                f"refused: `new` must be a whole new definition (its def/class/function line "
                f"and body), not {input.new.strip()[:60]!r}; no proposal was made",
                self.name,
                path=rel,
            )
        if input.after:
            span = find(self.name, rel, data, input.after)
            indent = indent_of(data, span.start)
            at = line_end(data, span.end)
        else:
            indent, at = "", len(data)
        gap = "\n\n" if python and not indent else "\n"
        head = data[:at]
        if head and not head.endswith(b"\n"):
            head += b"\n"
        block = (gap + reindent(input.new, indent, python)).encode("utf-8")
        tail = data[at:]
        if tail.strip():
            tail = gap.encode() + tail.lstrip(b"\n")
        new = head.rstrip(b"\n") + b"\n" + block + tail
        self._refuse_duplicates(rel, data, new)
        return propose(ctx, self.name, rel, data, new)

    def _refuse_duplicates(self, rel: str, old: bytes, new: bytes) -> None:
        """A definition the file already has is not added again (the 1.5B inserted a second
        `def slugify` to "fix" the first: Python keeps the last one silently)."""
        before = Counter(s.name for s in symbol_spans(rel, old) or [])
        after = Counter(s.name for s in symbol_spans(rel, new) or [])
        again = sorted(n for n, count in after.items() if before.get(n) and count > before[n])
        if again:
            raise ToolError(
                "runtime",
                f"refused: {rel} already defines {', '.join(again)}; to change it, use "
                "replace_symbol (or edit_file); no proposal was made",
                self.name,
                path=rel,
            )
