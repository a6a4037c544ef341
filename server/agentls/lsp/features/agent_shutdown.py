"""`shutdown`: stop the agent before the server exits — every run is cancelled (its
pending proposals rejected, its `finished` event sent while the client still listens),
tool calls are told to stop, shared models are closed. Without this, a run waiting for a
decision would keep a worker thread, and so the process, alive after `exit`."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.runs import RunManager


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.SHUTDOWN)
    async def shutdown(ls: AgentLanguageServer, params: Any) -> None:
        manager = ls.attached_if_made(RunManager)
        if manager is not None:
            await manager.shutdown()
