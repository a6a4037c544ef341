"""The `finish` tool: the agent declares the goal done and summarises the work.

It does nothing itself; the agent loop ends the run when it sees a successful call.
Must not know: the agent loop, LSP.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolInput, ToolOutput
from agentls.tools.permissions import Permission


class FinishInput(ToolInput):
    summary: str = Field(min_length=1, description="What was done, for the user.")


class FinishOutput(ToolOutput):
    summary: str


class Finish(Tool):
    """Finish the run: call this when the goal is achieved (or cannot be), with a summary."""

    name = "finish"
    category = "system"
    permissions: ClassVar[frozenset[Permission]] = frozenset()
    Input = FinishInput
    Output = FinishOutput
    timeout_s = 5.0

    def execute(self, input: FinishInput, ctx: ToolContext) -> FinishOutput:
        return FinishOutput(summary=input.summary)
