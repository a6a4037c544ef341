"""An MCP tool result (`CallToolResult`) as an agentls tool output.

The text blocks are joined; images, audio, resource links and embedded resources are
summarised in their place (kind, MIME type, size, URI; a text resource's opening
lines), never dumped; `structuredContent` is kept as given. A result with `isError: true`
is a `runtime` ToolError carrying the same text. The text is capped (MAX_TEXT_CHARS) and
says so. Must not know: the SDK's classes (blocks are read by their `type`), sessions,
the registry.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agentls.tools.base import ToolError, ToolOutput

MAX_TEXT_CHARS = 100_000
PREVIEW_CHARS = 300


class McpOutput(ToolOutput):
    content: str = Field(description="The result's text; other content is summarised in place.")
    structured_content: Any = Field(
        default=None, description="The result's structuredContent, when the server gave one."
    )
    truncated: bool = Field(
        default=False, description=f"The text was cut at {MAX_TEXT_CHARS} characters."
    )


def to_output(result: Any) -> McpOutput:
    """The output of a successful call; ToolError for `isError: true`."""
    text = "\n".join(_block(b) for b in result.content or [])
    if result.is_error:
        raise ToolError("runtime", f"the MCP tool reported an error: {text or '(no message)'}")
    truncated = len(text) > MAX_TEXT_CHARS
    if truncated:
        text = text[:MAX_TEXT_CHARS] + f"\n[… {len(text) - MAX_TEXT_CHARS} more characters cut]"
    return McpOutput(
        content=text, structured_content=result.structured_content, truncated=truncated
    )


def _block(block: Any) -> str:
    kind = getattr(block, "type", None)
    if kind == "text":
        return str(block.text)
    if kind in ("image", "audio"):
        return f"[{kind}: {block.mime_type}, {_size(_decoded_bytes(block.data))}]"
    if kind == "resource_link":
        return _link(block)
    if kind == "resource":
        return _embedded(block.resource)
    return f"[{kind or type(block).__name__} content]"


def _link(block: Any) -> str:
    parts = [f"resource link: {block.uri}"]
    label = block.title or block.name
    if label and label != block.uri:
        parts.append(f"“{label}”")
    if block.mime_type:
        parts.append(f"({block.mime_type})")
    if block.description:
        parts.append(f"— {_short(block.description)}")
    return "[" + " ".join(parts) + "]"


def _embedded(resource: Any) -> str:
    mime = f" ({resource.mime_type})" if resource.mime_type else ""
    text = getattr(resource, "text", None)
    if text is not None:
        head = f"[resource {resource.uri}{mime}, {len(text)} characters"
        return head + (f", opening: {_short(text, PREVIEW_CHARS)}]" if text.strip() else "]")
    blob = getattr(resource, "blob", "")
    return f"[resource {resource.uri}{mime}, {_size(_decoded_bytes(blob))} of binary data]"


def _decoded_bytes(data: str) -> int:
    """The size base64 `data` decodes to (not decoded: it may be large)."""
    data = "".join(str(data).split())
    return max(len(data) * 3 // 4 - data[-2:].count("="), 0)


def _size(n: int) -> str:
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f} KB"


def _short(text: str, limit: int = 200) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"
