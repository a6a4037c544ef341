"""`textDocument/hover`: the signature and docstring/JSDoc of what is under the cursor."""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.lsp.language_server import AgentLanguageServer


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: AgentLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            return None
        project, rel = found
        info = project.index.hover(rel, params.position.line, params.position.character)
        if info is None:
            return None
        fence = project.index.spec(info.location.path)
        lang = fence.name if fence else ""
        parts = [f"```{lang}\n{info.signature}\n```"]
        if info.doc:
            parts.append(info.doc)
        where = f"{info.kind} in `{info.location.path}`"
        if info.how == "fallback":
            where += " (matched by name)"
        parts.append(f"*{where}*")
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n".join(parts)),
            range=None,
        )
