"""`textDocument/documentSymbol`: the hierarchical outline of one file."""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.lsp.convert import document_symbols as to_lsp
from agentls.lsp.language_server import AgentLanguageServer


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbols(ls: AgentLanguageServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            return None
        project, rel = found
        return to_lsp(project.index.document_symbols(rel))
