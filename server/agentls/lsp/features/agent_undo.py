"""`agent/undo {runId}` → `{proposalId | null, files: [paths], skipped: [{path, reason}]}`.

Every edit the run applied comes back as one new proposal, presented and reviewed like any
other (`agent/proposal`, per hunk too); files changed since the run touched them are
skipped with the reason. Works from the run's trace, so also after a restart. An unknown
or running run is a -32602 error naming `runId`. See tools/undo.py.
"""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import fields, text
from agentls.lsp.runs import RunManager

METHOD = "agent/undo"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_undo(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        run_id = text(fields(params, METHOD), "runId", METHOD, required=True) or ""
        return await RunManager.of(ls).undo(run_id)
