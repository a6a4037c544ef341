"""`textDocument/prepareRename` and `textDocument/rename`, from the same references the
editor's "find references" answers (analysis/rename.py, shared with the agent's
`rename_symbol` tool).

The rename is one WorkspaceEdit: `documentChanges` with each open document's version
(null for files read from disk), or plain `changes` for a client without
`workspaceEdit.documentChanges`. Import lines are included (they are references).
A name that cannot be renamed — no identifier, a keyword, defined outside the workspace,
unresolved — is refused with LSP RequestFailed (-32803) and the reason, which the client
shows; never an internal error. Both run on the server's loop, so no edit lands between
computing the ranges and reading the versions.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.analysis.rename import RenamePlan, RenameRefused
from agentls.lsp.convert import path_to_uri, range_of
from agentls.lsp.language_server import AgentLanguageServer, Project
from agentls.lsp.params import request_failed


def _document_changes(ls: AgentLanguageServer) -> bool:
    caps = ls.client_capabilities
    edit = caps.workspace.workspace_edit if caps and caps.workspace else None
    return bool(edit and edit.document_changes)


def workspace_edit(project: Project, plan: RenamePlan, versioned: bool) -> lsp.WorkspaceEdit:
    """The plan as one WorkspaceEdit (files in path order, ranges in text order)."""
    edits: dict[str, list[lsp.TextEdit]] = {}
    versions: dict[str, int | None] = {}
    for rel in sorted(plan.ranges):
        uri = path_to_uri(project.root / rel)
        edits[uri] = [lsp.TextEdit(range=range_of(start, end), new_text=plan.new) for start, end in plan.ranges[rel]]
        doc = project.workspace.document(rel)
        versions[uri] = doc.version if doc is not None else None
    if not versioned:
        return lsp.WorkspaceEdit(changes=edits)
    return lsp.WorkspaceEdit(
        document_changes=[
            lsp.TextDocumentEdit(text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions[uri]), edits=list(changes))
            for uri, changes in edits.items()
        ]
    )


def register(server: AgentLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: AgentLanguageServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            raise request_failed("agentls: this file is not in an indexed workspace folder, so nothing in it can be renamed")
        project, rel = found
        try:
            name, start, end = project.index.prepare_rename(rel, params.position.line, params.position.character)
        except RenameRefused as exc:
            raise request_failed(f"agentls: cannot rename: {exc}") from None
        return lsp.PrepareRenamePlaceholder(range=range_of(start, end), placeholder=name)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    async def rename(ls: AgentLanguageServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit:
        found = await ls.wait_ready(params.text_document.uri)
        if found is None:
            raise request_failed("agentls: this file is not in an indexed workspace folder, so nothing in it can be renamed")
        project, rel = found
        try:
            plan = project.index.rename(rel, params.position.line, params.position.character, params.new_name)
        except RenameRefused as exc:
            raise request_failed(f"agentls: cannot rename: {exc}") from None
        return workspace_edit(project, plan, _document_changes(ls))
