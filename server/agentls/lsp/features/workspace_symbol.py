"""`workspace/symbol`: fuzzy search over module- and class-level definitions of every
workspace folder."""

from __future__ import annotations

import asyncio

from lsprotocol import types as lsp

from agentls.lsp.convert import location, symbol_kind
from agentls.lsp.language_server import AgentLanguageServer

LIMIT = 200


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.WORKSPACE_SYMBOL)
    async def workspace_symbols(ls: AgentLanguageServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
        out: list[lsp.SymbolInformation] = []
        for project in list(ls.projects.values()):
            await asyncio.to_thread(project.ready.wait, 30)
            for loc in project.index.workspace_symbols(params.query, LIMIT):
                out.append(
                    lsp.SymbolInformation(
                        name=loc.name,
                        kind=symbol_kind(loc.kind),
                        location=location(project.root, loc),
                        container_name=loc.container or None,
                    )
                )
        return out[:LIMIT]
