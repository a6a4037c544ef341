"""The `retrieve_spec` tool: find specification and requirements sections in the docs.

Must not know: how documents are indexed (docs.py) or what "spec-like" means in detail.
"""

from __future__ import annotations

from agentls.tools.base import Tool, ToolContext
from agentls.tools.knowledge.retrieval import RetrieveInput, RetrieveOutput, retrieve
from agentls.tools.permissions import Permission


class RetrieveSpec(Tool):
    """Search the workspace's specifications and requirements for the given words.

    Looks first in documents whose path or headings mention spec, requirement, API,
    protocol, contract or RFC (and anything under specs/); falls back to all docs.
    Returns the best sections with path, heading path, 0-based line range and text.
    """

    name = "retrieve_spec"
    category = "knowledge"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = RetrieveInput
    Output = RetrieveOutput

    def execute(self, input: RetrieveInput, ctx: ToolContext) -> RetrieveOutput:
        return retrieve(self.name, input.query, "spec", ctx)
