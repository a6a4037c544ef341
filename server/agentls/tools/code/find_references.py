"""The `find_references` tool: where a symbol is used, from the workspace index.

Must not know: how the index resolves names (analysis), LSP.
"""

from __future__ import annotations

from agentls.tools.base import Tool, ToolContext
from agentls.tools.code.locations import LookupOutput
from agentls.tools.code.lookup import SymbolQueryInput, lookup
from agentls.tools.permissions import Permission


class FindReferences(Tool):
    """Find the places that use a symbol (the definition included).

    Give `path` and `line` (and optionally `character`) of an occurrence for the
    references of exactly that binding; with only the name, occurrences are matched by
    name across the workspace. `how` says whether the answer was resolved or matched by
    name. Lines and characters are 0-based.
    """

    name = "find_references"
    category = "code"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = SymbolQueryInput
    Output = LookupOutput
    timeout_s = 120.0  # the first call may build the index

    def execute(self, input: SymbolQueryInput, ctx: ToolContext) -> LookupOutput:
        return lookup(
            ctx,
            self.name,
            input,
            lambda index, rel, line, character: index.references(rel, line, character),
            lambda index, symbol, rel: index.find_references_by_name(symbol, rel),
        )
