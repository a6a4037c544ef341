"""`agent/status {runId}` → `{runId, sessionId, status, goal, tasks[{title, status}], steps,
proposals, summary?, verification?, usage}` (the run's RunState.to_dict()); an unknown runId
is a -32602 error."""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import fields, text
from agentls.lsp.runs import RunManager

METHOD = "agent/status"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    def agent_status(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        run_id = text(fields(params, METHOD), "runId", METHOD, required=True) or ""
        return RunManager.of(ls).status(run_id)
