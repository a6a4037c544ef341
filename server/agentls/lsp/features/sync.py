"""Document sync: `textDocument/didOpen|didChange|didClose|didSave` and
`workspace/didChangeWatchedFiles`. Incremental changes re-parse only the changed file,
reusing its tree (tree.edit). Open documents get their syntax errors as diagnostics
(diagnostics.py). Documents outside every workspace folder are ignored.
"""

from __future__ import annotations

import logging

from lsprotocol import types as lsp

from agentls.lsp.features.diagnostics import SyntaxDiagnostics
from agentls.lsp.language_server import AgentLanguageServer
from agentls.workspace import TextChange

log = logging.getLogger(__name__)


def _change(c: object) -> TextChange:
    rng = getattr(c, "range", None)
    text: str = getattr(c, "text", "")
    if rng is None:
        return TextChange(text)
    return TextChange(text, (rng.start.line, rng.start.character), (rng.end.line, rng.end.character))


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: AgentLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        found = ls.locate(params.text_document.uri)
        if found is None:
            return
        project, rel = found
        doc = params.text_document
        project.workspace.open(rel, doc.text, doc.version, doc.language_id)
        if project.ready.is_set():
            project.index.update_file(rel)
        SyntaxDiagnostics.of(ls).schedule(doc.uri, project, rel, delay=0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: AgentLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        found = ls.locate(params.text_document.uri)
        if found is None:
            return
        project, rel = found
        doc, edits = project.workspace.change(rel, [_change(c) for c in params.content_changes], params.text_document.version)
        if project.ready.is_set():
            project.index.update_file(rel, doc.data, edits or None)
        SyntaxDiagnostics.of(ls).schedule(params.text_document.uri, project, rel)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: AgentLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        SyntaxDiagnostics.of(ls).clear(params.text_document.uri)
        found = ls.locate(params.text_document.uri)
        if found is None:
            return
        project, rel = found
        project.workspace.close(rel)
        if project.ready.is_set():
            project.index.close_file(rel)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: AgentLanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        found = ls.locate(params.text_document.uri)
        if found is not None and found[0].ready.is_set() and found[0].workspace.document(found[1]) is None:
            found[0].index.update_file(found[1])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: AgentLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        for event in params.changes:
            found = ls.locate(event.uri)
            if found is None:
                continue
            project, rel = found
            if not project.ready.is_set() or project.workspace.document(rel) is not None:
                continue  # the open buffer is the truth until it is closed
            if event.type == lsp.FileChangeType.Deleted:
                project.index.remove_file(rel)
            elif project.index.walker.is_ignored(rel):
                continue
            else:
                project.index.update_file(rel)
