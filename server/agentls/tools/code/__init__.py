"""Code analysis tools over the workspace index: parse_ast, find_symbol_definition,
find_references, dependency_graph.

Must not know: tree-sitter (the index parses), the agent, LSP.
"""

from agentls.tools.code.dependency_graph import DependencyGraph
from agentls.tools.code.find_references import FindReferences
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition
from agentls.tools.code.parse_ast import ParseAst

TOOLS = [ParseAst, FindSymbolDefinition, FindReferences, DependencyGraph]

__all__ = ["TOOLS", "DependencyGraph", "FindReferences", "FindSymbolDefinition", "ParseAst"]
