"""dependency_graph over a real index: the import edges, rendered as JSON, DOT and Mermaid."""

from __future__ import annotations

from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.code import dependency_graph
from agentls.tools.code.dependency_graph import DependencyGraph

EDGES = [
    {"from": "app", "to": "pkg.main"},
    {"from": "pkg.main", "to": "pkg.util"},
    {"from": "web/index.ts", "to": "web/math.ts"},
]


def test_json_is_the_default(call: Any, ctx: ToolContext) -> None:
    out = call(DependencyGraph, ctx)
    assert (out.format, out.how, out.text, out.truncated) == ("json", "resolved", None, False)
    assert out.graph["edges"] == EDGES
    assert {"app", "pkg.main", "pkg.util", "web/index.ts", "web/math.ts"} <= set(out.graph["nodes"])
    assert (out.node_count, out.edge_count) == (len(out.graph["nodes"]), 3)


@pytest.mark.parametrize(
    ("fmt", "expected_lines"),
    [
        (
            "dot",
            [
                '  "pkg.main" -> "pkg.util";',
                '  "app" -> "pkg.main";',
                '  "web/index.ts" -> "web/math.ts";',
            ],
        ),
        ("mermaid", ["graph LR"]),
    ],
)
def test_text_formats(call: Any, ctx: ToolContext, fmt: str, expected_lines: list[str]) -> None:
    out = call(DependencyGraph, ctx, format=fmt)
    assert (out.format, out.graph, out.edge_count) == (fmt, None, 3)
    lines = out.text.splitlines()
    for line in expected_lines:
        assert line in lines


def test_mermaid_edges_connect_the_right_nodes(call: Any, ctx: ToolContext) -> None:
    text = call(DependencyGraph, ctx, format="mermaid").text
    ids = {}
    edges = set()
    for line in text.splitlines()[1:]:
        line = line.strip()
        if "-->" in line:
            a, b = (part.strip() for part in line.split("-->"))
            edges.add((a, b))
        else:
            node_id, label = line.split("[", 1)
            ids[label.strip('"]')] = node_id
    assert (ids["pkg.main"], ids["pkg.util"]) in edges
    assert (ids["web/index.ts"], ids["web/math.ts"]) in edges
    assert len(edges) == 3


@pytest.mark.parametrize(
    ("path", "edges"),
    [
        ("web", [{"from": "web/index.ts", "to": "web/math.ts"}]),
        ("web/index.ts", [{"from": "web/index.ts", "to": "web/math.ts"}]),
        ("pkg", [{"from": "pkg.main", "to": "pkg.util"}]),
        (".", EDGES),
    ],
)
def test_path_narrows_the_graph(
    call: Any, ctx: ToolContext, path: str, edges: list[dict[str, str]]
) -> None:
    assert call(DependencyGraph, ctx, path=path).graph["edges"] == edges


def test_big_graphs_are_cut(call: Any, ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dependency_graph, "MAX_EDGES", 1)
    monkeypatch.setattr(dependency_graph, "MAX_NODES", 2)
    out = call(DependencyGraph, ctx, format="dot")
    assert out.truncated is True
    assert (out.node_count, out.edge_count) != (2, 1)  # the counts are of the whole graph
    assert out.text.count("->") == 1


def test_workspace_without_code_has_an_empty_graph(call: Any, tmp_path: Any) -> None:
    from agentls.tools.permissions import PermissionSet
    from agentls.workspace import Workspace

    (tmp_path / "notes.md").write_text("# nothing\n", encoding="utf-8")
    ctx = ToolContext(workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode("dev"))
    out = call(DependencyGraph, ctx)
    assert (out.how, out.graph, out.node_count) == ("none", {"nodes": [], "edges": []}, 0)
