"""In process: the pieces of the agent surface that need no client — the editor context a
run starts from, the no-workspace error, and proposals as lsprotocol WorkspaceEdits."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from agentls.lsp.proposals import workspace_edit
from agentls.lsp.runs import RunManager
from agentls.settings import Settings
from agentls.tools.proposals import ProposalStore
from agentls.workspace import Workspace

SOURCE = "def main():\n    s = 'héllo'\n    return s\n"


def manager(projects: dict[Any, Any] | None = None) -> RunManager:
    server = SimpleNamespace(settings=Settings(), projects=projects or {}, locate=lambda uri: None)
    return RunManager(server)  # type: ignore[arg-type]


# range → the selected text (None: nothing selected or out of the file)
SELECTIONS = [
    (((0, 4), (0, 8)), "main"),
    (((0, 0), (1, 4)), "def main():\n    "),
    (((1, 9), (1, 14)), "héllo"),  # UTF-16 columns after a non-ASCII character
    (((1, 2), (1, 2)), None),
    (((40, 0), (41, 0)), None),
    (None, None),
]


@pytest.mark.parametrize(("rng", "selected"), SELECTIONS)
def test_editor_context_reads_the_selection(tmp_path: Path, rng: Any, selected: str | None) -> None:
    (tmp_path / "app.py").write_text(SOURCE, "utf-8")
    project = SimpleNamespace(workspace=Workspace(tmp_path))
    ctx = manager().editor_context(project, "app.py", rng)  # type: ignore[arg-type]
    assert (ctx.path, ctx.range, ctx.text) == ("app.py", rng, selected)


def test_editor_context_prefers_the_open_buffer(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(SOURCE, "utf-8")
    workspace = Workspace(tmp_path)
    workspace.open("app.py", SOURCE.replace("main", "start"), 3)
    ctx = manager().editor_context(SimpleNamespace(workspace=workspace), "app.py", ((0, 4), (0, 9)))  # type: ignore[arg-type]
    assert ctx.text == "start"


def test_no_workspace_folder_is_a_request_failed_error() -> None:
    with pytest.raises(JsonRpcException) as caught:
        manager().project_for(None)
    assert caught.value.code == -32803 and "workspace folder" in caught.value.message


@pytest.mark.parametrize("document_changes", [True, False])
@pytest.mark.parametrize("confirm", [True, False])
def test_proposals_become_workspace_edits(
    tmp_path: Path, confirm: bool, document_changes: bool
) -> None:
    (tmp_path / "app.py").write_text(SOURCE, "utf-8")
    store = ProposalStore(Workspace(tmp_path))
    proposal = store.propose(
        "app.py", SOURCE.encode(), SOURCE.replace("main", "start").encode(), run_id="run-1"
    )
    edit = workspace_edit(proposal, confirm=confirm, document_changes=document_changes)
    uri = (tmp_path / "app.py").resolve().as_uri()
    if document_changes:
        (change,) = edit.document_changes or ()
        assert isinstance(change, lsp.TextDocumentEdit) and change.text_document.uri == uri
        edits = list(change.edits)
    else:
        assert edit.document_changes is None and edit.changes is not None
        edits = list(edit.changes[uri])
    assert [e.new_text for e in edits] == ["def start():\n"]
    if confirm and document_changes:
        assert all(isinstance(e, lsp.AnnotatedTextEdit) for e in edits)
        (annotation,) = (edit.change_annotations or {}).values()
        assert annotation.needs_confirmation and annotation.label == "Edit app.py"
    else:
        assert edit.change_annotations is None and not any(
            isinstance(e, lsp.AnnotatedTextEdit) for e in edits
        )
    assert (
        proposal.edit["documentChanges"][0]["edits"][0].get("annotationId") is None
    )  # not mutated


def test_the_server_attaches_one_manager_and_one_publisher() -> None:
    from agentls.lsp.features.diagnostics import SyntaxDiagnostics
    from agentls.lsp.server import AgentLanguageServer

    server = AgentLanguageServer()
    assert server.attached_if_made(RunManager) is None  # shutdown finds nothing to stop
    manager = RunManager.of(server)
    assert isinstance(manager, RunManager) and manager.server is server
    assert RunManager.of(server) is manager and server.attached_if_made(RunManager) is manager
    publisher = SyntaxDiagnostics.of(server)
    assert SyntaxDiagnostics.of(server) is publisher and publisher is not manager
    assert AgentLanguageServer().attached(RunManager) is not manager  # per server
