"""`agent/proposals {runId?}` → `{proposals: [...]}`: every proposal of the server (or of
one run), oldest first, each with its status, comment and note."""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import fields, text
from agentls.lsp.runs import RunManager

METHOD = "agent/proposals"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    def agent_proposals(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        run_id = text(fields(params, METHOD), "runId", METHOD)
        return {"proposals": RunManager.of(ls).tools.proposals(run_id)}
