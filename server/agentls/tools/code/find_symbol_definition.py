"""The `find_symbol_definition` tool: where a symbol is defined, from the workspace index.

Must not know: how the index resolves names (analysis), LSP.
"""

from __future__ import annotations

from agentls.tools.base import Tool, ToolContext
from agentls.tools.code.locations import LookupOutput
from agentls.tools.code.lookup import SymbolQueryInput, lookup
from agentls.tools.permissions import Permission


class FindSymbolDefinition(Tool):
    """Find where a symbol (function, class, variable, method) is defined.

    Give `path` and `line` (and optionally `character`) of a place where the symbol is
    used for a precise, import-aware answer; with only the name, definitions are matched
    by name across the workspace (`path` ranks nearby ones first). `how` says whether the
    answer was resolved or matched by name. Lines and characters are 0-based.
    """

    name = "find_symbol_definition"
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
            lambda index, rel, line, character: index.definition(rel, line, character),
            lambda index, symbol, rel: index.find_definitions(symbol, rel),
        )
