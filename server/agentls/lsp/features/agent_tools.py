"""`agent/tools {}` → `{tools: [{name, description, category, inputSchema, outputSchema,
permissions, enabled, disabledReason}]}` for the mode in the settings (the MCP servers of
`mcpServers` are started first, off the loop and bounded: their tools are listed too)."""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.runs import RunManager

METHOD = "agent/tools"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_tools(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        return {"tools": await RunManager.of(ls).tools.schemas()}
