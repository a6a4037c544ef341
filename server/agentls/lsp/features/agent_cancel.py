"""`agent/cancel {runId}` → `{runId, status}`: "cancelled", or the final status of a run
that had already ended. Answers once the run has wound down (bounded wait).
`cancel_from_params` is shared with the `agentls.agent.cancel` command."""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import fields, text
from agentls.lsp.runs import RunManager

METHOD = "agent/cancel"


async def cancel_from_params(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
    run_id = text(fields(params, METHOD), "runId", METHOD, required=True) or ""
    return await RunManager.of(ls).cancel(run_id)


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_cancel(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        return await cancel_from_params(ls, params)
