"""What the two document retrieval tools share: their input, their output and the search.

`retrieve_spec` and `retrieve_design_doc` differ only in which documents they prefer.
Must not know: how documents are split or indexed (see sections.py, docs.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.knowledge.docs import Scope
from agentls.tools.knowledge.fields import Text
from agentls.tools.knowledge.stores import docs_index

MAX_RESULTS = 5
MAX_SECTION_CHARS = 2000


class RetrieveInput(ToolInput):
    query: Text = Field(description="Words to look for in the documentation.")


class DocSection(ToolOutput):
    path: str
    heading: str = Field(
        description='Heading path, e.g. "Design > Tools"; empty before the first heading.'
    )
    start_line: int = Field(description="0-based line of the heading.")
    end_line: int = Field(description="0-based last line of the section (inclusive).")
    text: str
    truncated: bool = Field(description="True when text was cut; read the file for the rest.")
    score: float = Field(description="bm25 relevance; higher is better.")


class RetrieveOutput(ToolOutput):
    sections: list[DocSection]
    scope: Literal["spec", "design", "all"] = Field(
        description="Which documents the sections came from: the preferred kind, or all docs as a fallback."
    )


def retrieve(tool: str, query: str, prefer: Scope, ctx: ToolContext) -> RetrieveOutput:
    try:
        hits, scope = docs_index(ctx).search(query, MAX_RESULTS, prefer)
    except (OSError, RuntimeError) as exc:
        raise ToolError("runtime", f"could not search the documentation: {exc}", tool) from exc
    sections = [
        DocSection(
            path=hit.path,
            heading=hit.heading,
            start_line=hit.start_line,
            end_line=hit.end_line,
            text=hit.text[:MAX_SECTION_CHARS],
            truncated=len(hit.text) > MAX_SECTION_CHARS,
            score=hit.score,
        )
        for hit in hits
    ]
    return RetrieveOutput(sections=sections, scope=scope)  # type: ignore[arg-type]
