"""`textDocument/publishDiagnostics`: the syntax errors of open documents (tree-sitter
ERROR and MISSING nodes, one diagnostic per error region, source `agentls`).

Document sync (sync.py) calls `schedule` on didOpen (at once) and didChange (debounced:
once after the typing pauses), and `clear` on didClose. The errors are read off the loop
from the tree the index keeps current for the open document (a full parse only before the
index is ready; files over the analysis size limit get none); a result for a version that
is no longer the buffer's is dropped (the newer one is scheduled). A document whose errors are fixed gets an empty list, which clears them;
documents that never had errors are not published to. `navigation: false` turns these
off too: an editor running Pylance or the TypeScript server has its own syntax errors.
Must not know: how syntax errors are found (analysis/syntax.py).
"""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types as lsp

from agentls.analysis.syntax import error_regions
from agentls.lsp.convert import range_of
from agentls.lsp.language_server import AgentLanguageServer, Project
from agentls.workspace.documents import MAX_FILE_BYTES

log = logging.getLogger(__name__)

SOURCE = "agentls"
#: Seconds after the last change before a document is parsed for its diagnostics.
DEBOUNCE_S = 0.3


def _regions(project: Project, rel: str, data: bytes) -> list[tuple[tuple[int, int], tuple[int, int], str]] | None:
    """From the tree the index keeps for the open document (re-parsed incrementally on
    every change) when there is one, else a parse of the buffer; none for a file too large
    to analyse. If the tree has moved on to a newer buffer meanwhile, the caller drops the
    result (the version check)."""
    if len(data) > MAX_FILE_BYTES:
        return None
    kept = project.index.syntax_errors(rel, data) if project.ready.is_set() else None
    return kept if kept is not None else error_regions(rel, data)


class SyntaxDiagnostics:
    def __init__(self, server: AgentLanguageServer) -> None:
        self.server = server
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.shown: set[str] = set()  # URIs last published with diagnostics

    @classmethod
    def of(cls, server: AgentLanguageServer) -> SyntaxDiagnostics:
        """The server's publisher (made on first use)."""
        return server.attached(cls)

    def schedule(self, uri: str, project: Project, rel: str, delay: float = DEBOUNCE_S) -> None:
        """Publish the document's syntax errors after `delay`, replacing a pending one."""
        if not self.server.settings.navigation:
            return
        self._cancel(uri)
        task = asyncio.ensure_future(self._publish(uri, project, rel, delay))
        self.pending[uri] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self.pending.get(uri) is done:
                del self.pending[uri]

        task.add_done_callback(forget)

    def clear(self, uri: str) -> None:
        """The document closed: drop its pending parse and clear what was shown."""
        self._cancel(uri)
        if uri in self.shown:
            self.shown.discard(uri)
            self.server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def _cancel(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()

    async def _publish(self, uri: str, project: Project, rel: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        doc = project.workspace.document(rel)
        if doc is None:
            return
        version = doc.version
        try:
            regions = await asyncio.to_thread(_regions, project, rel, doc.data)
        except Exception:  # a parser failure must not take diagnostics (or the server) down
            log.exception("syntax diagnostics of %s failed", rel)
            return
        now = project.workspace.document(rel)
        if regions is None or now is None or now.version != version:
            return  # not analysed, closed, or changed since: a newer parse is scheduled
        if not regions and uri not in self.shown:
            return
        diagnostics = [
            lsp.Diagnostic(range=range_of(start, end), message=message, severity=lsp.DiagnosticSeverity.Error, source=SOURCE)
            for start, end, message in regions
        ]
        (self.shown.add if diagnostics else self.shown.discard)(uri)
        self.server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))
