"""`agent/resolveProposal {id, decision: "accepted" | "rejected", comment?, hunks?, content?}`
→ `{id, status: "applied" | "rejected" | "stale"}`.

"accepted" means the editor applied the edit itself (DESIGN §4): when the file already
holds the proposed content it is "applied" with nothing written; when it still holds
what the proposal was made from, the edit is sent back through `workspace/applyEdit`;
when it changed otherwise it is "stale". `hunks` (per-hunk review): the indexes of the
hunks the editor applied; the others are left out and the model is told so. `content`
(edit before accept, DESIGN §9): `{uri: text}`, the text the editor applied where the user
changed the proposal; every file must then hold its final text (else "stale"), nothing is
sent back, and the model is told how the applied text differs from its proposal. `hunks`
and `content` together, or a bad `content`, is -32602. See lsp/proposals.py.
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


def texts_by_uri(data: dict[str, Any]) -> dict[str, str] | None:
    """`content` checked for shape: an object of URI → text."""
    value = data.get("content")
    if value is None:
        return None
    if not isinstance(value, dict) or not value or len(value) > MAX_HUNKS:
        raise AgentRequestError(f"{METHOD}: 'content' must be an object of document URI → text", "content")
    for uri, text_ in value.items():
        if not isinstance(text_, str):
            raise AgentRequestError(
                f"{METHOD}: 'content' of {uri} must be a string, got {type(text_).__name__}", "content", uri=uri
            )
    if data.get("hunks") is not None:
        raise AgentRequestError(f"{METHOD}: send either 'hunks' or 'content', not both", "content")
    return value


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_resolve_proposal(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        data = fields(params, METHOD)
        proposal_id = text(data, "id", METHOD, required=True) or ""
        decision = choice(data, "decision", DECISIONS, METHOD, required=True) or ""
        comment = text(data, "comment", METHOD)
        hunks = hunk_indexes(data)
        content = texts_by_uri(data)
        return await RunManager.of(ls).tools.resolve(proposal_id, decision, comment, hunks, content)
