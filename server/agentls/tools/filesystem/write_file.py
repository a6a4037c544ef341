"""The `write_file` tool: propose a file's whole new content (never writes by itself).

Must not know: the editor, LSP, the agent.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput
from agentls.tools.filesystem.content import current_content, is_binary, target
from agentls.tools.filesystem.proposing import ProposalOutput, call_timeout, propose
from agentls.tools.permissions import WRITE, Permission


class WriteFileInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root; created if missing.")
    content: str = Field(description="The complete new content of the file.")


class WriteFile(Tool):
    """Propose to create a file or replace its whole content.

    The change is not written directly: it becomes a proposal (a diff) that the user
    accepts or rejects, unless approval is 'auto'. The result says whether it was applied,
    rejected (with the user's comment), stale or is still pending; your own later reads
    see a pending proposal as if applied. Prefer edit_file for small changes.
    """

    name = "write_file"
    category = "filesystem"
    permissions: ClassVar[frozenset[Permission]] = frozenset({WRITE})
    Input = WriteFileInput
    Output = ProposalOutput
    timeout_s = 30.0

    def timeout_for(self, input: Any, ctx: ToolContext) -> float:
        return call_timeout(self.timeout_s, ctx)

    def execute(self, input: WriteFileInput, ctx: ToolContext) -> ProposalOutput:
        real, rel = target(ctx, input.path)
        if rel == "." or real.is_dir():
            raise ToolError(
                "runtime", f"{rel} is a directory; give a file path", self.name, path=rel
            )
        for parent in real.parents:
            if parent.exists():
                if not parent.is_dir():
                    blocker = ctx.workspace.relative(parent)
                    raise ToolError(
                        "runtime", f"cannot create {rel}: {blocker} is a file", self.name
                    )
                break
        current = current_content(ctx, rel, real, self.name)
        new = input.content.encode("utf-8")
        if current is not None:
            if is_binary(current.data):
                raise ToolError(
                    "runtime", f"{rel} is a binary file; write_file writes text only", self.name
                )
            if current.size > len(current.data):
                raise ToolError(
                    "runtime", f"{rel} is too large ({current.size} bytes) to replace", self.name
                )
            if current.data == new:
                raise ToolError(
                    "runtime",
                    f"{rel} already has exactly this content; nothing to change",
                    self.name,
                )
        return propose(ctx, self.name, rel, current.data if current else None, new)
