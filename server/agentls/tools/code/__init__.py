"""Code analysis tools over the workspace index: parse_ast, find_symbol_definition,
find_references, dependency_graph; and edits addressed by symbol: replace_symbol,
insert_symbol, add_docstring, rename_symbol (proposals, like edit_file).

Must not know: tree-sitter (the index parses), the agent, LSP.
"""

from agentls.tools.code.add_docstring import AddDocstring
from agentls.tools.code.dependency_graph import DependencyGraph
from agentls.tools.code.find_references import FindReferences
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition
from agentls.tools.code.insert_symbol import InsertSymbol
from agentls.tools.code.parse_ast import ParseAst
from agentls.tools.code.rename_symbol import RenameSymbol
from agentls.tools.code.replace_symbol import ReplaceSymbol

TOOLS = [
    ParseAst,
    FindSymbolDefinition,
    FindReferences,
    DependencyGraph,
    ReplaceSymbol,
    InsertSymbol,
    AddDocstring,
    RenameSymbol,
]

__all__ = [
    "TOOLS",
    "AddDocstring",
    "DependencyGraph",
    "FindReferences",
    "FindSymbolDefinition",
    "InsertSymbol",
    "ParseAst",
    "RenameSymbol",
    "ReplaceSymbol",
]
