"""Which of the registry's tools `agentls mcp` offers, as MCP `Tool`s (`tools/list`).

Offered: the tools the registry enables for the server's mode (its permission check and
each tool's own `enabled`, as `agent/tools` says), each with its own JSON Schemas as
`inputSchema` and `outputSchema` and the description the agent's model reads. Withheld:
the run controls (category `system`: `finish` ends an agent run, and MCP starts none).
Must not know: transports, how a call runs, any particular tool.
"""

from __future__ import annotations

from typing import Any

from mcp import types

from agentls.agent.launch import Workbench
from agentls.settings import Settings
from agentls.tools.base import Tool, ToolContext
from agentls.tools.permissions import PermissionSet

#: Tool categories that control an agent run of our own; an MCP client has no such run.
WITHHELD_CATEGORIES = frozenset({"system"})


def withheld(tool: Tool | None) -> bool:
    return tool is not None and tool.category in WITHHELD_CATEGORIES


def offered(bench: Workbench, permissions: PermissionSet, settings: Settings) -> list[types.Tool]:
    """The MCP tools of `bench` under `permissions`, in the registry's order."""
    ctx = ToolContext(workspace=bench.workspace, permissions=permissions, settings=settings)
    return [
        _as_mcp(entry)
        for entry in bench.registry.schemas(permissions, ctx)
        if entry["enabled"] and entry["category"] not in WITHHELD_CATEGORIES
    ]


def _as_mcp(entry: dict[str, Any]) -> types.Tool:
    return types.Tool(
        name=entry["name"],
        description=entry["description"],
        input_schema=entry["inputSchema"],
        output_schema=entry["outputSchema"],
    )
