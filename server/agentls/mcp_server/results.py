"""A tool call's outcome as an MCP `CallToolResult`.

Success: the tool's output as JSON text, and the same object as `structuredContent` (every
registry tool has an output schema, listed as the MCP tool's `outputSchema`). Failure:
`isError: true` and the contract's structured error `{type, message, tool}` as JSON text;
no structured content, which the output schema does not describe. Notes from the server
(a proposal nobody can accept here) follow the result as more text blocks.
Must not know: transports, how a call runs, any particular tool.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mcp import types

from agentls.tools.base import ToolError, result_dict
from agentls.tools.executor import ToolResult


def _text(value: Any) -> types.TextContent:
    return types.TextContent(type="text", text=json.dumps(value, ensure_ascii=False))


def _notes(notes: Sequence[str]) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=note) for note in notes]


def from_result(result: ToolResult, notes: Sequence[str] = ()) -> types.CallToolResult:
    shape = result.to_dict()
    if shape["ok"]:
        output = shape["output"]
        return types.CallToolResult(content=[_text(output), *_notes(notes)], structured_content=output)
    return _refusal(shape["error"], notes)


def _refusal(error: dict[str, Any], notes: Sequence[str] = ()) -> types.CallToolResult:
    """A failed call: `{type, message, tool}` as JSON text, `isError: true`."""
    return types.CallToolResult(content=[_text(error), *_notes(notes)], is_error=True)


def from_error(error: ToolError) -> types.CallToolResult:
    return _refusal(result_dict(False, None, error.to_dict(), error.tool)["error"])
