"""`agent/sessions {}` → `{sessions: [{sessionId, title, runs, updated}]}` (DESIGN §9): the
sessions of every workspace folder (`.agentls/sessions/`, so they outlive a restart), the
most recently updated first; `updated` is seconds since the epoch. `agent/run {sessionId}`
continues one."""

from __future__ import annotations

import asyncio
from typing import Any

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import fields
from agentls.lsp.runs import RunManager

METHOD = "agent/sessions"


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_sessions(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        fields(params, METHOD)
        sessions = await asyncio.to_thread(RunManager.of(ls).sessions)
        return {"sessions": sessions}
