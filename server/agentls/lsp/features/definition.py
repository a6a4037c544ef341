"""`textDocument/definition` from the tree-sitter index (scope- and import-aware; ranked
name matches when resolution fails)."""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.lsp.convert import location
from agentls.lsp.language_server import AgentLanguageServer


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: AgentLanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            return None
        project, rel = found
        res = project.index.definition(rel, params.position.line, params.position.character)
        return [location(project.root, loc) for loc in res.locations] or None
