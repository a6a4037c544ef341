"""Pending proposals: edits the agent wants to make, waiting for the user's decision.

`write_file` and `edit_file` never write; they add a `Proposal` here (a unified diff plus a
WorkspaceEdit). Until resolved, the run's own reads see it (`overlay`). Resolving with
"accepted" re-checks the file: if its content (open buffer, else disk) is no longer what
the proposal was made from, the proposal is "stale" and nothing is written. Otherwise the
store's `applier` applies it (default: an atomic write inside the workspace; the LSP layer
swaps in one that goes through the editor). Listeners hear of every creation and
resolution as an event dict. Thread-safe. Must not know: LSP, the agent, any model.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from agentls.tools.proposal_edit import unified_diff, workspace_edit
from agentls.workspace import Workspace

log = logging.getLogger(__name__)

Status = Literal["pending", "applied", "rejected", "stale"]
Decision = Literal["accepted", "rejected"]
Applier = Callable[["Proposal"], None]
Listener = Callable[[dict[str, Any]], None]


def content_hash(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class Proposal:
    id: str
    run_id: str | None
    path: str  # relative POSIX path
    uri: str
    title: str
    diff: str
    edit: dict[str, Any]
    base_hash: str | None  # sha256 of the content it was made from; None: a new file
    new_content: bytes
    status: Status = "pending"
    comment: str | None = None  # the user's, with the decision
    note: str | None = None  # the store's, e.g. why it is stale
    created_at: float = field(default_factory=time.time)

    @property
    def is_new_file(self) -> bool:
        return self.base_hash is None

    def to_dict(self) -> dict[str, Any]:
        """The `agent/proposal` payload plus its state (camelCase, JSON-ready)."""
        return {
            "id": self.id,
            "runId": self.run_id,
            "uri": self.uri,
            "path": self.path,
            "title": self.title,
            "diff": self.diff,
            "edit": self.edit,
            "status": self.status,
            "comment": self.comment,
            "note": self.note,
            "createdAt": self.created_at,
        }


def write_atomically(workspace: Workspace, proposal: Proposal) -> None:
    """The default applier: replace the file on disk in one rename, inside the workspace."""
    target = workspace.resolve(proposal.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else None
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".agentls", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(proposal.new_content)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class ProposalStore:
    """All proposals of a server (or of one CLI call), by id."""

    def __init__(self, workspace: Workspace, applier: Applier | None = None) -> None:
        self.workspace = workspace
        self.applier: Applier = applier or (lambda p: write_atomically(workspace, p))
        self._proposals: dict[str, Proposal] = {}
        self._cond = threading.Condition()
        self._listeners: list[Listener] = []
        self._resolving: set[str] = set()

    # --- creation ------------------------------------------------------------------
    def propose(
        self,
        path: str,
        old: bytes | None,
        new: bytes,
        *,
        run_id: str | None = None,
        title: str | None = None,
    ) -> Proposal:
        """Build and add a proposal turning `old` (None: no file yet) into `new` at `path`."""
        rel = self.workspace.relative(path)
        uri = (self.workspace.root / rel).as_uri()
        doc = self.workspace.document(rel)
        proposal = Proposal(
            id=f"prop-{uuid.uuid4().hex[:12]}",
            run_id=run_id,
            path=rel,
            uri=uri,
            title=title or (f"Create {rel}" if old is None else f"Edit {rel}"),
            diff=unified_diff(rel, old, new),
            edit=workspace_edit(uri, doc.version if doc is not None else None, old, new),
            base_hash=content_hash(old),
            new_content=new,
        )
        return self.add(proposal)

    def add(self, proposal: Proposal) -> Proposal:
        with self._cond:
            self._proposals[proposal.id] = proposal
        self._emit("created", proposal)
        return proposal

    # --- queries -------------------------------------------------------------------
    def get(self, proposal_id: str) -> Proposal | None:
        with self._cond:
            return self._proposals.get(proposal_id)

    def list(self, run_id: str | None = None) -> list[Proposal]:
        with self._cond:
            items = list(self._proposals.values())
        if run_id is not None:
            items = [p for p in items if p.run_id == run_id]
        return sorted(items, key=lambda p: p.created_at)

    def overlay(self, run_id: str | None, path: str) -> bytes | None:
        """The newest pending content of `path` proposed by this run, or None."""
        rel = self.workspace.relative(path)
        with self._cond:
            pending = [
                p
                for p in self._proposals.values()
                if p.status == "pending" and p.run_id == run_id and p.path == rel
            ]
        if not pending:
            return None
        return max(pending, key=lambda p: p.created_at).new_content

    # --- decisions -----------------------------------------------------------------
    def resolve(self, proposal_id: str, decision: Decision, comment: str | None = None) -> Status:
        """Accept or reject; returns applied | rejected | stale. Resolving twice changes nothing.

        The applier runs outside the store's lock (it may wait for an editor); a second
        resolve of the same proposal meanwhile waits for the first and returns its outcome.
        """
        if decision not in ("accepted", "rejected"):
            raise ValueError(f"decision must be 'accepted' or 'rejected', not {decision!r}")
        with self._cond:
            proposal = self._proposals.get(proposal_id)
            if proposal is None:
                raise KeyError(f"no proposal with id {proposal_id!r}")
            while proposal_id in self._resolving:
                self._cond.wait()
            if proposal.status != "pending":
                return proposal.status
            self._resolving.add(proposal_id)
        status: Status = "stale"  # if checking or applying blows up, nothing was written
        try:
            status = "rejected" if decision == "rejected" else self._apply(proposal)
        finally:
            with self._cond:
                proposal.comment = comment
                proposal.status = status
                self._resolving.discard(proposal_id)
                self._cond.notify_all()
        self._emit("resolved", proposal)
        return status

    def _apply(self, proposal: Proposal) -> Status:
        current = self.workspace.read_bytes(proposal.path)
        if current == proposal.new_content:  # already applied (e.g. by the editor itself)
            return "applied"
        if content_hash(current) != proposal.base_hash:
            proposal.note = "the file changed since the proposal was made; nothing was written"
            return "stale"
        try:
            self.applier(proposal)
        except Exception as exc:
            log.warning("could not apply proposal %s to %s: %s", proposal.id, proposal.path, exc)
            proposal.note = f"it could not be applied: {exc}"
            return "stale"
        return "applied"

    def wait(self, proposal_id: str, timeout: float | None = None) -> Proposal:
        """Block until the proposal is resolved or `timeout` seconds pass; return it."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                proposal = self._proposals.get(proposal_id)
                if proposal is None:
                    raise KeyError(f"no proposal with id {proposal_id!r}")
                if proposal.status != "pending":
                    return proposal
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return proposal
                self._cond.wait(remaining)

    # --- events --------------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        with self._cond:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._cond:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _emit(self, action: str, proposal: Proposal) -> None:
        event = {"kind": "proposal", "action": action, "proposal": proposal.to_dict()}
        with self._cond:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:
                log.exception("proposal listener %r failed on %s", listener, action)
