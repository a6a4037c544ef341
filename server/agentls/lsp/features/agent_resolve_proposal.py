"""`agent/resolveProposal {id, decision: "accepted" | "rejected", comment?}` →
`{id, status: "applied" | "rejected" | "stale"}`.

"accepted" means the editor applied the edit itself (DESIGN §4): when the file already
holds the proposed content it is "applied" with nothing written; when it still holds
what the proposal was made from, the edit is sent back through `workspace/applyEdit`;
when it changed otherwise it is "stale". See lsp/proposals.py.
"""

from __future__ import annotations

from typing import Any

from agentls.lsp.params import choice, fields, text
from agentls.lsp.runs import RunManager
from agentls.lsp.server import AgentLanguageServer
from agentls.lsp.toolbox import DECISIONS

METHOD = "agent/resolveProposal"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_resolve_proposal(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        data = fields(params, METHOD)
        proposal_id = text(data, "id", METHOD, required=True) or ""
        decision = choice(data, "decision", DECISIONS, METHOD, required=True) or ""
        comment = text(data, "comment", METHOD)
        return await RunManager.of(ls).tools.resolve(proposal_id, decision, comment)
