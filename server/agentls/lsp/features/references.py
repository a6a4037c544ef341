"""`textDocument/references`, honouring `context.includeDeclaration`, answered in slices:
between slices the server answers other requests and reads `$/cancelRequest` (the task is
cancelled at its next await and pygls replies RequestCancelled); with a
`partialResultToken` each slice goes out at once as a `$/progress` partial result and the
final reply is empty, as the LSP asks. An edit to the workspace while the search runs
ends it with ContentModified (the client asks again).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified

from agentls.analysis.references import ContentModified
from agentls.lsp.convert import location_json
from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.protocol import EncodedJson


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: AgentLanguageServer, params: lsp.ReferenceParams) -> list[Any] | EncodedJson | None:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            return None
        project, rel = found
        include = params.context.include_declaration if params.context else True
        token = params.partial_result_token
        encoded: list[str] = []  # each slice's locations as JSON text, encoded as found
        uris: dict[str, str] = {}
        stream = project.index.references_stream(rel, params.position.line, params.position.character, include)
        try:
            for batch in stream:
                items = [location_json(project.root, loc, uris) for loc in batch]
                if token is not None:
                    ls.protocol.send_plain_notification("$/progress", {"token": token, "value": items})
                elif items:
                    encoded.append(json.dumps(items)[1:-1])
                await asyncio.sleep(0)
        except ContentModified as exc:
            raise JsonRpcContentModified(str(exc)) from None
        if token is not None:
            return EncodedJson("[]")
        return EncodedJson(f"[{','.join(encoded)}]") if encoded else None
