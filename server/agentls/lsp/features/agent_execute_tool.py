"""`agent/executeTool {name, input, mode?}` → `{ok: true, output}` or `{ok: false, error:
{type, message, tool}}`, through the executor of the first workspace folder.

Tool failures (validation, runtime, permission) are results, not JSON-RPC errors; a
missing name or an unknown mode is -32602. Write tools propose, and their proposals reach
the editor like a run's (with approval "ask" the answer waits for the decision).
"""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import choice, fields, text
from agentls.lsp.runs import RunManager
from agentls.tools.permissions import MODES

METHOD = "agent/executeTool"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_execute_tool(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        data = fields(params, METHOD)
        name = text(data, "name", METHOD, required=True) or ""
        mode = choice(data, "mode", MODES, METHOD)
        manager = RunManager.of(ls)
        project, _ = manager.project_for(None)
        return await manager.tools.execute(project, name, data.get("input"), mode)
