"""The `web_search` tool: a query to the configured SearxNG-compatible endpoint.

`GET {searchUrl}?q=…&format=json` → `{results: [{title, url, content}]}` becomes
`{results: [{title, url, snippet}]}` (DESIGN §3). The endpoint is the user's own choice,
so its origin (host and port) is reachable like a host `webAllow` names (a local SearxNG
on localhost works without opening localhost to web_fetch); everything else about the policy applies,
redirects included. Without `searchUrl` the tool is listed as disabled with that reason.
Must not know: the agent, LSP.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.fields import NonBlank
from agentls.tools.permissions import Permission
from agentls.tools.web.fetcher import fetch, parse_url, port_of
from agentls.tools.web.policy import WebPolicy

NO_ENDPOINT = (
    "no search endpoint is configured: set searchUrl in the agentls settings to a "
    "SearxNG-compatible JSON endpoint (GET {searchUrl}?q=...&format=json)"
)
SNIPPET_CHARS = 500


class WebSearchInput(ToolInput):
    query: NonBlank = Field(max_length=500, description="What to search the web for.")
    limit: int = Field(default=5, ge=1, le=20, description="How many results to return at most.")


class SearchResult(ToolOutput):
    title: str
    url: str
    snippet: str


class WebSearchOutput(ToolOutput):
    results: list[SearchResult]


def _results(payload: Any, limit: int) -> list[SearchResult]:
    items = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise ValueError("the answer has no `results` list")
    out: list[SearchResult] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            continue
        snippet = " ".join(str(item.get("content") or "").split())
        out.append(SearchResult(title=str(item.get("title") or ""), url=item["url"], snippet=snippet[:SNIPPET_CHARS]))
        if len(out) == limit:
            break
    return out


class WebSearch(Tool):
    """Search the web; returns up to `limit` results, each with its title, URL and a snippet.

    Read a result with web_fetch.
    """

    name = "web_search"
    category = "web"
    permissions = frozenset({Permission.NETWORK})
    Input = WebSearchInput
    Output = WebSearchOutput

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        if ctx is None or not ctx.settings.search_url:
            return False, NO_ENDPOINT
        return True, None

    def timeout_for(self, input: Any, ctx: ToolContext) -> float:
        return ctx.settings.web_timeout_s + 5.0

    def execute(self, input: WebSearchInput, ctx: ToolContext) -> WebSearchOutput:
        if not ctx.settings.search_url:
            raise ToolError("runtime", NO_ENDPOINT, self.name)
        endpoint = parse_url(ctx.settings.search_url)
        url = endpoint.copy_merge_params({"q": input.query, "format": "json"})
        policy = WebPolicy.from_settings(
            ctx.settings, tool=self.name, trusted=[(endpoint.raw_host.decode("ascii"), port_of(endpoint))]
        )
        answer = fetch(url, policy, accept="application/json", cancel=ctx.cancel)
        where = f"the search endpoint ({answer.url})"
        if answer.status != 200:
            raise ToolError("runtime", f"{where} answered HTTP {answer.status}", self.name)
        try:
            return WebSearchOutput(results=_results(json.loads(answer.body), input.limit))
        except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
            raise ToolError("runtime", f"{where} did not answer SearxNG JSON: {exc}", self.name) from exc
