"""The `search_memory` tool: full-text search over the workspace's long-term memory.

Must not know: how the store keeps its data (see memory.py), the agent, LSP.
"""

from __future__ import annotations

import sqlite3

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.knowledge.fields import Text
from agentls.tools.knowledge.stores import memory_store
from agentls.tools.permissions import Permission


class SearchMemoryInput(ToolInput):
    query: Text = Field(description="Words to look for; the most relevant memories come first.")
    limit: int = Field(default=5, ge=1, le=50, description="How many memories to return at most.")


class MemoryItem(ToolOutput):
    id: int
    text: str
    tags: list[str]
    score: float = Field(description="bm25 relevance; higher is better.")
    created_at: str


class SearchMemoryOutput(ToolOutput):
    memories: list[MemoryItem]


class SearchMemory(Tool):
    """Search long-term memory (notes saved by earlier runs) for the given words.

    Returns the best matches first, each with its id, text, tags, score and creation time.
    A query with no letters or digits returns nothing.
    """

    name = "search_memory"
    category = "knowledge"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = SearchMemoryInput
    Output = SearchMemoryOutput

    def execute(self, input: SearchMemoryInput, ctx: ToolContext) -> SearchMemoryOutput:
        try:
            hits = memory_store(ctx).search(input.query, input.limit)
        except (sqlite3.Error, OSError) as exc:
            raise ToolError(
                "runtime", f"could not read the memory store: {exc}", self.name
            ) from exc
        return SearchMemoryOutput(memories=[MemoryItem(**hit) for hit in hits])
