"""`agent/resolveProposal {id, decision: "accepted" | "rejected", comment?, hunks?}` →
`{id, status: "applied" | "rejected" | "stale"}`.

"accepted" means the editor applied the edit itself (DESIGN §4): when the file already
holds the proposed content it is "applied" with nothing written; when it still holds
what the proposal was made from, the edit is sent back through `workspace/applyEdit`;
when it changed otherwise it is "stale". `hunks` (per-hunk review): the indexes of the
hunks the editor applied; the others are left out and the model is told so. See
lsp/proposals.py.
"""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import AgentRequestError, choice, fields, text
from agentls.lsp.runs import RunManager
from agentls.lsp.toolbox import DECISIONS

METHOD = "agent/resolveProposal"
MAX_HUNKS = 100_000


def hunk_indexes(data: dict[str, Any]) -> list[int] | None:
    value = data.get("hunks")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_HUNKS or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value
    ):
        raise AgentRequestError(f"{METHOD}: 'hunks' must be a list of hunk indexes", "hunks")
    return value


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_resolve_proposal(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        data = fields(params, METHOD)
        proposal_id = text(data, "id", METHOD, required=True) or ""
        decision = choice(data, "decision", DECISIONS, METHOD, required=True) or ""
        comment = text(data, "comment", METHOD)
        hunks = hunk_indexes(data)
        return await RunManager.of(ls).tools.resolve(proposal_id, decision, comment, hunks)
