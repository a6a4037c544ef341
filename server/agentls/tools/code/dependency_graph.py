"""The `dependency_graph` tool: which modules import which, as JSON, DOT or Mermaid.

Nodes are Python module names and TypeScript/JavaScript file paths; edges are imports
between files of the workspace. Big graphs are cut (narrow them with `path`).
Must not know: how imports are resolved (analysis), LSP.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from agentls.analysis.graph import DependencyGraph as Graph
from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.code.fields import PathText
from agentls.tools.code.index_access import existing_path, workspace_index
from agentls.tools.code.locations import HOW_DESCRIPTION, How
from agentls.tools.permissions import Permission

MAX_EDGES = 1500
MAX_NODES = 1500


class DependencyGraphInput(ToolInput):
    path: PathText | None = Field(
        default=None,
        description="Only the files under this folder (or this one file); default: all.",
    )
    format: Literal["json", "dot", "mermaid"] = Field(
        default="json", description="How to render the graph."
    )


class DependencyGraphOutput(ToolOutput):
    format: Literal["json", "dot", "mermaid"]
    how: How = Field(description=HOW_DESCRIPTION)
    node_count: int
    edge_count: int
    truncated: bool = Field(
        description="True when the graph was cut to fit; narrow it with `path`."
    )
    graph: dict[str, Any] | None = Field(
        default=None, description='format json: {"nodes": [...], "edges": [{"from", "to"}]}.'
    )
    text: str | None = Field(default=None, description="format dot or mermaid: the rendered graph.")


def _cut(graph: Graph) -> tuple[Graph, bool]:
    if len(graph.edges) <= MAX_EDGES and len(graph.nodes) <= MAX_NODES:
        return graph, False
    edges = graph.edges[:MAX_EDGES]
    kept = {n for edge in edges for n in edge}
    nodes = [n for n in graph.nodes if n in kept]
    nodes += [n for n in graph.nodes if n not in kept][: max(0, MAX_NODES - len(nodes))]
    return Graph(nodes, edges), True


class DependencyGraph(Tool):
    """Show the import graph of the workspace (or of the files under `path`).

    Nodes are Python modules and TypeScript/JavaScript files; an edge A → B means A
    imports B. `format` is json (default), dot (Graphviz) or mermaid.
    """

    name = "dependency_graph"
    category = "code"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = DependencyGraphInput
    Output = DependencyGraphOutput
    timeout_s = 120.0  # the first call may build the index

    def execute(self, input: DependencyGraphInput, ctx: ToolContext) -> DependencyGraphOutput:
        rel: str | None = None
        if input.path is not None:
            rel, is_dir = existing_path(ctx, self.name, input.path)
            index = workspace_index(ctx)
            if not is_dir and index.spec(rel) is None:
                raise ToolError(
                    "runtime",
                    f"{input.path!r} is not in a language the code index analyses",
                    self.name,
                    path=input.path,
                )
        else:
            index = workspace_index(ctx)
        full = index.dependency_graph(None if rel in (None, ".") else rel)
        graph, truncated = _cut(full)
        out = DependencyGraphOutput(
            format=input.format,
            how="resolved" if graph.nodes else "none",
            node_count=len(full.nodes),
            edge_count=len(full.edges),
            truncated=truncated,
        )
        if input.format == "json":
            out.graph = graph.to_json()
        elif input.format == "dot":
            out.text = graph.to_dot()
        else:
            out.text = graph.to_mermaid()
        return out
