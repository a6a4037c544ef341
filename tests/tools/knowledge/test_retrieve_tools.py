"""retrieve_spec and retrieve_design_doc called the way the executor calls them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from agentls.tools.base import ToolContext
from agentls.tools.knowledge.retrieval import MAX_RESULTS, MAX_SECTION_CHARS
from agentls.tools.knowledge.retrieve_design_doc import RetrieveDesignDoc
from agentls.tools.knowledge.retrieve_spec import RetrieveSpec
from agentls.tools.knowledge.stores import docs_index
from agentls.tools.permissions import Permission

FILES = {
    "DESIGN.md": "# Design\n\n## Tools\n\nEvery tool validates its input.\n\n## Memory\n\nMemory uses SQLite.\n",
    "docs/adr/0001-sqlite.md": "# Use SQLite\n\nWe chose SQLite for memory because it ships with Python.\n",
    "docs/specs/protocol.md": "# Protocol\n\n## Requests\n\nagent/run takes a goal.\n\n## Memory\n\nmemory is not on the wire.\n",
    "docs/api.rst": "API\n===\n\nTools\n-----\n\nThe tools endpoint lists every tool.\n",
    "docs/guide.md": "# Guide\n\n## Installation\n\nRun the installation script.\n",
}


@pytest.fixture
def docs_ctx(ctx: ToolContext) -> ToolContext:
    for rel, text in FILES.items():
        path = ctx.workspace.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return ctx


def call(tool: Any, ctx: ToolContext, query: str) -> Any:
    return tool().execute(tool.Input(query=query), ctx)


@pytest.mark.parametrize(
    ("tool", "query", "scope", "paths"),
    [
        (RetrieveSpec, "goal", "spec", ["docs/specs/protocol.md"]),
        (RetrieveSpec, "memory", "spec", ["docs/specs/protocol.md"]),
        (RetrieveSpec, "tools endpoint", "spec", ["docs/api.rst"]),
        (RetrieveSpec, "installation", "all", ["docs/guide.md"]),
        (RetrieveDesignDoc, "memory", "design", ["DESIGN.md", "docs/adr/0001-sqlite.md"]),
        (RetrieveDesignDoc, "validates", "design", ["DESIGN.md"]),
        (RetrieveDesignDoc, "goal", "all", ["docs/specs/protocol.md"]),
        (RetrieveDesignDoc, "nonexistentword", "all", []),
        (RetrieveSpec, "?!", "spec", []),
    ],
)
def test_preferred_documents_then_fallback(
    docs_ctx: ToolContext, tool: Any, query: str, scope: str, paths: list[str]
) -> None:
    out = call(tool, docs_ctx, query)
    assert out.scope == scope
    assert [s.path for s in out.sections] == paths


def test_section_shape(docs_ctx: ToolContext) -> None:
    (section,) = call(RetrieveSpec, docs_ctx, "goal").sections
    assert section.heading == "Protocol > Requests"
    assert (section.start_line, section.end_line) == (2, 4)
    assert section.text == "## Requests\n\nagent/run takes a goal."
    assert section.truncated is False
    assert section.score > 0


def test_rst_heading_path(docs_ctx: ToolContext) -> None:
    sections = call(RetrieveSpec, docs_ctx, "endpoint").sections
    assert [(s.heading, s.start_line) for s in sections] == [("API > Tools", 3)]


def test_long_sections_are_capped(ctx: ToolContext) -> None:
    (ctx.workspace.root / "SPEC.md").write_text("# Spec\n" + "lengthy " * 1000, encoding="utf-8")
    (section,) = call(RetrieveSpec, ctx, "lengthy").sections
    assert len(section.text) == MAX_SECTION_CHARS
    assert section.truncated is True


def test_results_are_capped(ctx: ToolContext) -> None:
    text = "\n".join(f"# Part {i}\nrepeated word\n" for i in range(12))
    (ctx.workspace.root / "DESIGN.md").write_text(text, encoding="utf-8")
    assert len(call(RetrieveDesignDoc, ctx, "repeated").sections) == MAX_RESULTS


def test_index_is_shared_per_workspace(docs_ctx: ToolContext) -> None:
    call(RetrieveSpec, docs_ctx, "goal")
    call(RetrieveDesignDoc, docs_ctx, "memory")
    index = docs_index(docs_ctx)
    assert index.builds == 1
    other = ToolContext(workspace=docs_ctx.workspace, permissions=docs_ctx.permissions)
    assert docs_index(other) is index


@pytest.mark.parametrize("tool", [RetrieveSpec, RetrieveDesignDoc])
def test_permissions(tool: Any) -> None:
    assert tool.permissions == frozenset({Permission.FILESYSTEM_READ})
    assert tool.category == "knowledge"
    assert list(tool.schema()["inputSchema"]["properties"]) == ["query"]


@pytest.mark.parametrize(
    "raw",
    [{}, {"query": None}, {"query": 3}, {"query": "a\x00b"}, {"query": "x", "limit": 3}],
)
@pytest.mark.parametrize("tool", [RetrieveSpec, RetrieveDesignDoc])
def test_malformed_input_is_a_validation_error(tool: Any, raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        tool.Input(**raw)


@given(query=st.text(max_size=60))
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_arbitrary_queries_never_raise(docs_ctx: ToolContext, query: str) -> None:
    for tool in (RetrieveSpec, RetrieveDesignDoc):
        out = call(tool, docs_ctx, query.replace("\x00", ""))
        assert out.scope in ("spec", "design", "all")


def test_workspace_without_docs(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("print('spec')\n", encoding="utf-8")
    out = call(RetrieveSpec, ctx, "spec")
    assert (out.sections, out.scope) == ([], "all")
