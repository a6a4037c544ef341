"""The `retrieve_design_doc` tool: find design and architecture sections in the docs.

Must not know: how documents are indexed (docs.py) or what "design-like" means in detail.
"""

from __future__ import annotations

from agentls.tools.base import Tool, ToolContext
from agentls.tools.knowledge.retrieval import RetrieveInput, RetrieveOutput, retrieve
from agentls.tools.permissions import Permission


class RetrieveDesignDoc(Tool):
    """Search the workspace's design documents for the given words.

    Looks first in DESIGN/ARCHITECTURE documents, architecture decision records (docs/adr)
    and sections whose path or headings mention design or architecture; falls back to
    all docs. Returns the best sections with path, heading path, 0-based line range and text.
    """

    name = "retrieve_design_doc"
    category = "knowledge"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = RetrieveInput
    Output = RetrieveOutput

    def execute(self, input: RetrieveInput, ctx: ToolContext) -> RetrieveOutput:
        return retrieve(self.name, input.query, "design", ctx)
