"""`textDocument/references`, honouring `context.includeDeclaration`."""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.lsp.convert import location
from agentls.lsp.server import AgentLanguageServer


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: AgentLanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            return None
        project, rel = found
        include = params.context.include_declaration if params.context else True
        res = project.index.references(rel, params.position.line, params.position.character, include)
        return [location(project.root, loc) for loc in res.locations] or None
