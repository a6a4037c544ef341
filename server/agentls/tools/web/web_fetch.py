"""The `web_fetch` tool: a web page as readable text (DESIGN §3, web row).

The URL goes through the network policy and the guarded fetcher (every redirect checked,
body and time capped); the body becomes text (readable.py). An HTTP error status is not a
tool error: the page and its status go back to the model. Must not know: the agent, LSP.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.fields import NonBlank
from agentls.tools.permissions import Permission
from agentls.tools.web.fetcher import fetch, parse_url
from agentls.tools.web.policy import WebPolicy
from agentls.tools.web.readable import NotText, readable


def _valid_url(value: str) -> str:
    parse_url(value)  # ValueError → a validation error naming the field
    return value.strip()


Url = Annotated[NonBlank, Field(max_length=8192), AfterValidator(_valid_url)]


class WebFetchInput(ToolInput):
    url: Url = Field(description="The http:// or https:// address of the page.")
    max_chars: int = Field(
        default=10_000, ge=100, le=500_000, description="Cut the text at this many characters."
    )


class WebFetchOutput(ToolOutput):
    url: str = Field(description="The address the text came from, after redirects.")
    status: int
    title: str
    text: str = Field(description="The page's readable text (Markdown), not its HTML.")
    truncated: bool


class WebFetch(Tool):
    """Fetch a web page and return its readable text: title, headings, paragraphs, lists
    and code blocks as Markdown, without scripts, styles or navigation.

    Internal addresses (localhost, private networks, cloud metadata) are refused unless the
    user allowed the host; the page's size and the time are capped.
    """

    name = "web_fetch"
    category = "web"
    permissions = frozenset({Permission.NETWORK})
    Input = WebFetchInput
    Output = WebFetchOutput

    def timeout_for(self, input: Any, ctx: ToolContext) -> float:
        return ctx.settings.web_timeout_s + 10.0  # the fetch has its own cap; extraction after

    def execute(self, input: WebFetchInput, ctx: ToolContext) -> WebFetchOutput:
        policy = WebPolicy.from_settings(ctx.settings, tool=self.name)
        page = fetch(input.url, policy, cancel=ctx.cancel)
        try:
            title, text = readable(page.body, page.content_type, page.charset)
        except NotText as exc:
            raise ToolError("runtime", f"{page.url}: {exc}; web_fetch returns text only", self.name) from exc
        return WebFetchOutput(
            url=page.url,
            status=page.status,
            title=title,
            text=text[: input.max_chars],
            truncated=len(text) > input.max_chars,
        )
