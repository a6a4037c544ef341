"""The bridge from the ProposalStore to the editor (DESIGN §4).

New proposals reach the editor in one of two ways, chosen by the client's capabilities:
- `experimental: {agentls: {proposals: true}}` → the notification
  `agent/proposal {id, runId, uri, title, diff, edit, hunks}`. The editor shows the diff,
  applies the edit (or some hunks) itself on accept and answers `agent/resolveProposal`.
- otherwise → `workspace/applyEdit` with every change under one change annotation that
  needs confirmation (label = the proposal's title). The answer resolves the proposal:
  applied → "accepted"; not applied → "rejected" with the client's failure reason as the
  comment. There is no timeout on that answer: the tool's own wait is bounded. A client
  without `documentChanges` support gets plain `changes` (no annotations, a create is an
  insert), and a client that ignores annotations applies without asking: it is the only
  way such a client can show the edit, and it lands in its buffer, undoable and unsaved.
  A proposal decided elsewhere meanwhile (its run was cancelled) withdraws the open
  request with `$/cancelRequest`.
Proposals of runs with approval `auto`, and proposals an auto-approve rule let go ahead
(`autoApproved`, DESIGN §9), are not presented (there is nothing to decide); they are
applied at once through the applier below, and the run's `proposal` events say so.

The applier (the store's hook, called by `ProposalStore.resolve("accepted")` after it has
checked that the file still holds what the proposal was made from, on a worker thread)
never writes behind the editor's back: the editor already applied it (the applyEdit
answer said so) → nothing to do; else it sends `workspace/applyEdit` (no confirmation)
with the proposal's own edit (of the accepted hunks) — for an open document its version makes a client that
already applied it refuse instead of applying twice — and a refusal or no answer raises, which the store
reports as "stale" with the reason. Only a client that cannot apply edits at all gets the
file written on disk (after the same check). Must not know: runs, the agent, tools.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import functools
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import converters
from lsprotocol import types as lsp

from agentls.lsp.params import plain
from agentls.tools.proposals import Decision, Proposal, ProposalStore, write_atomically
from agentls.workspace import Workspace

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer

log = logging.getLogger(__name__)

PROPOSAL_NOTIFICATION = "agent/proposal"
NOTIFIED_FIELDS = ("id", "runId", "uri", "title", "diff", "edit", "hunks")
_converter = converters.get_converter()


def takes_proposals(server: AgentLanguageServer) -> bool:
    """Whether the client announced `experimental: {agentls: {proposals: true}}`."""
    caps = server.client_capabilities
    experimental = plain(getattr(caps, "experimental", None))
    ours = experimental.get("agentls") if isinstance(experimental, dict) else None
    return isinstance(ours, dict) and ours.get("proposals") is True


def applies_edits(server: AgentLanguageServer) -> bool:
    caps = server.client_capabilities
    return bool(caps and caps.workspace and caps.workspace.apply_edit)


def _document_changes(server: AgentLanguageServer) -> bool:
    caps = server.client_capabilities
    edit = caps.workspace.workspace_edit if caps and caps.workspace else None
    return bool(edit and edit.document_changes)


def workspace_edit(
    proposal: Proposal, *, confirm: bool, document_changes: bool = True
) -> lsp.WorkspaceEdit:
    """The proposal's edit (of its accepted hunks, when accepted in part) as an lsprotocol
    WorkspaceEdit; with `confirm`, every change carries one change annotation that needs
    confirmation."""
    edit = copy.deepcopy(proposal.selected_edit())
    changes: list[dict[str, Any]] = edit.get("documentChanges", [])
    if confirm:
        annotation = f"agentls-{proposal.id}"
        for change in changes:
            if "kind" in change:  # create / rename / delete
                change["annotationId"] = annotation
            for text_edit in change.get("edits", []):
                text_edit["annotationId"] = annotation
        run = f" of run {proposal.run_id}" if proposal.run_id else ""
        edit["changeAnnotations"] = {
            annotation: {
                "label": proposal.title,
                "needsConfirmation": True,
                "description": f"agentls proposal {proposal.id}{run}",
            }
        }
    if not document_changes:  # an old client: plain `changes`, which cannot carry annotations
        by_uri: dict[str, list[dict[str, Any]]] = {}
        for change in changes:
            if "textDocument" in change:
                by_uri.setdefault(change["textDocument"]["uri"], []).extend(change["edits"])
        edit.pop("documentChanges", None)
        edit.pop("changeAnnotations", None)
        edit["changes"] = by_uri
    return _converter.structure(edit, lsp.WorkspaceEdit)


class ProposalBridge:
    """Presents a server's proposals to its editor and applies accepted ones through it."""

    def __init__(self, server: AgentLanguageServer, timeout_s: Callable[[], float]) -> None:
        self.server = server
        self.timeout_s = timeout_s  # how long the applier waits for workspace/applyEdit
        self.auto_runs: set[str] = set()  # run ids whose proposals are applied at once
        self._client_applied: set[str] = set()
        self._offers: dict[str, str] = {}  # proposal id → id of its applyEdit request
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None

    def attach(self, store: ProposalStore) -> None:
        """Listen to a store and become its applier (call on the server's loop)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        store.add_listener(functools.partial(self._on_store_event, store))
        store.applier = functools.partial(self._apply, store.workspace)

    # --- presenting ----------------------------------------------------------------
    def _on_store_event(self, store: ProposalStore, event: dict[str, Any]) -> None:
        """A store listener (any thread): present new proposals on the loop."""
        proposal = event.get("proposal") or {}
        decided = proposal.get("runId") in self.auto_runs or proposal.get("autoApproved")
        if event.get("action") == "created" and not decided:
            self._on_loop(self._present, store, proposal)
        elif event.get("action") == "resolved" and proposal.get("id") in self._offers:
            self._on_loop(self._withdraw, proposal["id"])

    def _on_loop(self, callback: Callable[..., None], *args: Any) -> None:
        if threading.get_ident() == self._loop_thread:
            callback(*args)
        elif self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(callback, *args)

    def _present(self, store: ProposalStore, proposal: dict[str, Any]) -> None:
        if takes_proposals(self.server):
            payload = {name: proposal.get(name) for name in NOTIFIED_FIELDS}
            self.server.protocol.notify(PROPOSAL_NOTIFICATION, payload)
        elif applies_edits(self.server):
            self.server.spawn(self._offer(store, proposal["id"]))
        else:
            log.info(
                "proposal %s: the client can show it neither way; it stays pending", proposal["id"]
            )

    async def _offer(self, store: ProposalStore, proposal_id: str) -> None:
        """workspace/applyEdit needing confirmation; the answer is the user's decision."""
        proposal = store.get(proposal_id)
        if proposal is None or proposal.status != "pending":
            return
        edit = workspace_edit(
            proposal, confirm=True, document_changes=_document_changes(self.server)
        )
        params = lsp.ApplyWorkspaceEditParams(edit=edit, label=proposal.title)
        decision: Decision = "rejected"
        comment: str | None = None
        msg_id = self._offers[proposal_id] = f"agentls-apply-{proposal_id}"
        try:
            result = await self.server.protocol.send_request_async(
                lsp.WORKSPACE_APPLY_EDIT, params, msg_id=msg_id
            )
        except Exception as exc:  # the client failed (or dropped) the request
            comment = f"the editor could not apply the edit: {exc}"
        else:
            if result.applied:
                decision = "accepted"
                self._client_applied.add(proposal_id)
            else:
                comment = result.failure_reason or "the edit was declined in the editor"
        finally:
            self._offers.pop(proposal_id, None)
        try:
            status = await asyncio.to_thread(store.resolve, proposal_id, decision, comment)
        finally:
            self._client_applied.discard(proposal_id)
        if decision == "accepted" and status != "applied":
            log.warning("the editor applied proposal %s, which was already %s", proposal_id, status)

    def _withdraw(self, proposal_id: str) -> None:
        """The proposal was decided elsewhere (e.g. its run was cancelled): cancel the
        confirmation request still open in the editor ($/cancelRequest, best effort)."""
        msg_id = self._offers.pop(proposal_id, None)
        if msg_id is not None:
            self.server.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id=msg_id))

    # --- applying ------------------------------------------------------------------
    def _apply(self, workspace: Workspace, proposal: Proposal) -> None:
        """The store's applier: the file still holds the proposal's base (checked)."""
        if proposal.id in self._client_applied:
            return  # the editor applied it and said so; its didChange may still be coming
        if not applies_edits(self.server):
            write_atomically(workspace, proposal)  # no editor to go through
            return
        loop = self._loop
        if loop is None or threading.get_ident() == self._loop_thread:
            raise RuntimeError("the edit cannot be sent from the server's own event loop")
        timeout = self.timeout_s()
        params = lsp.ApplyWorkspaceEditParams(
            edit=workspace_edit(
                proposal, confirm=False, document_changes=_document_changes(self.server)
            ),
            label=proposal.title,
        )
        future = asyncio.run_coroutine_threadsafe(
            self.server.workspace_apply_edit_async(params), loop
        )
        try:
            result = future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise RuntimeError(
                f"the editor did not answer workspace/applyEdit within {timeout:g} s"
            ) from None
        except Exception as exc:
            raise RuntimeError(f"the editor failed workspace/applyEdit: {exc}") from exc
        if not result.applied:
            raise RuntimeError(
                f"the editor did not apply it ({result.failure_reason or 'no reason given'})"
            )
