"""The `save_memory` tool: store a note in the workspace's long-term memory.

Must not know: how the store keeps its data (see memory.py), the agent, LSP.
"""

from __future__ import annotations

import sqlite3

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.knowledge.fields import NonBlankText
from agentls.tools.knowledge.stores import memory_store
from agentls.tools.permissions import Permission

MAX_TEXT_CHARS = 20_000


class SaveMemoryInput(ToolInput):
    text: NonBlankText = Field(max_length=MAX_TEXT_CHARS, description="What to remember.")
    tags: list[NonBlankText] | None = Field(
        default=None, max_length=20, description="Short labels that help find it again."
    )


class SaveMemoryOutput(ToolOutput):
    id: int
    text: str
    tags: list[str]


class SaveMemory(Tool):
    """Save a note to long-term memory so later runs can find it with search_memory.

    Keep it short and self-contained: a fact, a decision, where something lives.
    """

    name = "save_memory"
    category = "knowledge"
    permissions = frozenset({Permission.FILESYSTEM_WRITE})
    Input = SaveMemoryInput
    Output = SaveMemoryOutput

    def execute(self, input: SaveMemoryInput, ctx: ToolContext) -> SaveMemoryOutput:
        tags = [t.strip() for t in input.tags or ()]
        try:
            memory_id = memory_store(ctx).add(input.text, tags, run_id=ctx.run_id, source="agent")
        except (sqlite3.Error, OSError) as exc:
            raise ToolError(
                "runtime", f"could not write the memory store: {exc}", self.name
            ) from exc
        return SaveMemoryOutput(id=memory_id, text=input.text, tags=tags)
