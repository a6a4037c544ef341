"""The `read_file` tool: a text file's lines, as the agent sees it.

Must not know: the agent, LSP, other tools.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.filesystem.content import current_content, require_text, target
from agentls.tools.permissions import READ, Permission
from agentls.tools.proposals.edit import split_lines

MAX_CONTENT_BYTES = 256 * 1024


class ReadFileInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root.")
    start_line: int | None = Field(default=None, ge=0, description="First line to read (0-based).")
    end_line: int | None = Field(
        default=None,
        ge=0,
        description="Line to stop before (0-based, exclusive); default: the end.",
    )

    @model_validator(mode="after")
    def _ordered(self) -> ReadFileInput:
        if (
            self.start_line is not None
            and self.end_line is not None
            and self.end_line < self.start_line
        ):
            raise ValueError(
                f"'end_line' ({self.end_line}) must not be before 'start_line' ({self.start_line})"
            )
        return self


class ReadFileOutput(ToolOutput):
    path: str
    content: str
    start_line: int
    end_line: int = Field(description="The line after the last one returned (exclusive).")
    total_lines: int
    truncated: bool = Field(description="True when the content was cut to stay under 256 KB.")
    size: int = Field(description="File size in bytes.")
    source: Literal["proposal", "buffer", "disk"] = Field(
        description="proposal: your own pending edit; buffer: unsaved editor text; disk."
    )


class ReadFile(Tool):
    """Read a text file in the workspace, optionally only lines start_line..end_line.

    Lines are 0-based and end_line is exclusive (start_line=10, end_line=20 returns ten
    lines, 10 to 19). Shows your own pending proposals for the file, then unsaved editor
    text, then the disk. Output over 256 KB is cut at a line boundary (truncated=true);
    read the rest with start_line. Binary files are refused.
    """

    name = "read_file"
    category = "filesystem"
    permissions: ClassVar[frozenset[Permission]] = frozenset({READ})
    Input = ReadFileInput
    Output = ReadFileOutput
    timeout_s = 30.0

    def execute(self, input: ReadFileInput, ctx: ToolContext) -> ReadFileOutput:
        real, rel = target(ctx, input.path)
        content = current_content(ctx, rel, real, self.name)
        if content is None:
            raise ToolError("runtime", f"file not found: {rel}", self.name, path=rel)
        require_text(content, self.name)
        lines = split_lines(content.data)
        total = len(lines)
        start = input.start_line or 0
        end = total if input.end_line is None else min(input.end_line, total)
        if start > total or (start == total and total > 0 and input.start_line is not None):
            raise ToolError(
                "runtime",
                f"start_line {start} is past the end of {rel} ({total} lines, 0 to {max(total - 1, 0)})",
                self.name,
            )
        chosen = lines[start:end]
        size = 0
        truncated = content.size > len(content.data)
        for i, line in enumerate(chosen):
            if size + len(line) > MAX_CONTENT_BYTES:
                truncated = True
                if i == 0:  # one huge line: cut inside it
                    chosen = [line[:MAX_CONTENT_BYTES]]
                    end = start + 1
                else:
                    chosen = chosen[:i]
                    end = start + i
                break
            size += len(line)
        return ReadFileOutput(
            path=rel,
            content=b"".join(chosen).decode("utf-8", "replace"),
            start_line=start,
            end_line=end,
            total_lines=total,
            truncated=truncated,
            size=content.size,
            source=content.source,
        )
