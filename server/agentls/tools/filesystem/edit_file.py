"""The `edit_file` tool: propose replacing one unique piece of a file (never writes by itself).

Must not know: the editor, LSP, the agent.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from agentls.tools.base import ToolContext, ToolError, ToolInput
from agentls.tools.filesystem.content import current_content, require_text, target
from agentls.tools.filesystem.matching import MatchError, replace_unique
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class EditFileInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root.")
    old: str = Field(min_length=1, description="The exact text to replace; it must occur once.")
    new: str = Field(description="The replacement text.")

    @model_validator(mode="after")
    def _differs(self) -> EditFileInput:
        if self.old == self.new:
            raise ValueError("'old' and 'new' are the same, so nothing would change: put the corrected text in 'new'")
        return self


class EditFile(ProposingTool):
    """Propose replacing one occurrence of `old` with `new` in an existing file.

    `old` must match exactly one place (copy it from read_file, with a few surrounding
    lines if needed). If there is no exact match, a unique match that differs only in
    indentation or trailing whitespace is used and `new` is re-indented to fit. The change
    becomes a proposal the user accepts or rejects (approval 'auto' applies it at once);
    the result says what happened. Your own later reads see a pending proposal.
    """

    name = "edit_file"
    category = "filesystem"
    Input = EditFileInput

    def execute(self, input: EditFileInput, ctx: ToolContext) -> ProposalOutput:
        real, rel = target(ctx, input.path)
        current = current_content(ctx, rel, real, self.name)
        if current is None:
            raise ToolError(
                "runtime",
                f"file not found: {rel} (use write_file to create it)",
                self.name,
                path=rel,
            )
        require_text(current, self.name)
        if current.size > len(current.data):
            raise ToolError(
                "runtime", f"{rel} is too large ({current.size} bytes) to edit", self.name
            )
        try:
            text = current.data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError(
                "runtime", f"{rel} is not valid UTF-8; it cannot be edited as text", self.name
            ) from None
        try:
            replaced = replace_unique(text, input.old, input.new, rel)
        except MatchError as exc:
            raise ToolError("runtime", str(exc), self.name, path=rel) from None
        note = (
            " (old text matched ignoring indentation/trailing whitespace)" if replaced.fuzzy else ""
        )
        try:
            return propose(ctx, self.name, rel, current.data, replaced.text.encode("utf-8"), note)
        except ToolError as exc:
            if exc.message.startswith("refused: the change would introduce syntax errors") and (line := _line_of(text, input.old)):
                # the 1.5B replaced the name `TIMEOUT_SECONDS` by `60`: show it the whole line
                exc.message += (
                    f". `old` is part of the line {line!r}: to change that line, give it whole as `old` "
                    "and the whole new line as `new`"
                )
            raise


def _line_of(text: str, old: str) -> str | None:
    """The one line that holds `old` when `old` is a part of a line (not a whole line)."""
    if not old.strip() or "\n" in old.strip():
        return None
    lines = [line for line in text.splitlines() if old in line]
    if len(lines) != 1 or lines[0].strip() == old.strip():
        return None
    return lines[0].strip()

