"""`agent/tools {}` → `{tools: [{name, description, category, inputSchema, outputSchema,
permissions, enabled, disabledReason}]}` for the mode in the settings."""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.runs import RunManager

METHOD = "agent/tools"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    def agent_tools(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        return {"tools": RunManager.of(ls).tools.schemas()}
