"""Pending proposals: edits the agent wants to make, waiting for the user's decision.

`write_file` and `edit_file` never write; they add a `Proposal` here (a unified diff, a
WorkspaceEdit and its hunks; an undo adds one changing several files). Until resolved,
the run's own reads see it (`overlay`). Resolving with "accepted" re-checks the file: if
its content (open buffer, else disk) is no longer what the proposal was made from, the
proposal is "stale" and nothing is written (the note names the run that wrote the file
meanwhile, when one did). Accepting some hunks only applies those, and the proposal's
note tells which were left out. Otherwise the store's `applier` applies it (default:
`workspace.durable.replace_files`, all or nothing; the LSP layer swaps in one that goes
through the editor). The check and the write happen under the workspace's write lock
(`workspace.writelock`), which every agentls process honours; before the applier runs,
the write-ahead hooks (the run's trace) record what is about to be written, so a crash at
any moment leaves a record of a write that may have landed. An OS failure while applying
(no space, a read-only or immutable file) makes the proposal "failed": nothing was
changed, and `error` says why as a `runtime` error (DESIGN §3). Accepting with `content` (edit before accept, DESIGN §9): the client
applied the user's version of some files itself — every file must then hold its final text
(the user's, or the proposal's for the files not named), else the proposal is "stale"; the
store never writes its own text over the user's. With `write_content` (the terminal, which
is its own client) the store writes the user's version itself, from the proposal's base.
`draft`/`draft_changes` build a proposal without adding it (so `decisions.submit` can mark
it auto-approved before anyone hears of it); `propose`/`propose_changes` build and add.

Events: the store publishes one event per creation and one per decision
(`{kind: "proposal", action: "created" | "resolved", proposal}`), and every listener hears
them in that one order — a proposal's creation always before its decision, even when a
listener decides it while hearing of its creation (that decision is delivered once the
creation has reached every listener). A thread that publishes while another is delivering
leaves its event to that one. `wait` blocks until the decision (or a timeout, or the
caller's cancel event): the decision wakes it, nothing polls.
Thread-safe. Must not know: LSP, the agent, any model.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from agentls.tools.proposals.applying import os_failure, write_atomically, writer
from agentls.tools.proposals.model import FileChange, Proposal, Status, content_hash
from agentls.workspace import Workspace, hooks
from agentls.workspace.durable import changed_by
from agentls.workspace.writelock import WriteLock

if TYPE_CHECKING:
    from agentls.tools.base import CancelEvent

__all__ = ["FileChange", "Proposal", "ProposalStore", "Status", "content_hash", "write_atomically"]

log = logging.getLogger(__name__)

Decision = Literal["accepted", "rejected"]
Applier = Callable[[Proposal], None]
Listener = Callable[[dict[str, Any]], None]
# (proposal, each file's content now, what it will hold): called before the applier
WriteAhead = Callable[[Proposal, dict[str, bytes | None], dict[str, bytes | None]], None]


class ProposalStore:
    """All proposals of a server (or of one CLI call), by id."""

    def __init__(self, workspace: Workspace, applier: Applier | None = None) -> None:
        self.workspace = workspace
        self.applier: Applier = applier or (lambda p: write_atomically(workspace, p))
        self._proposals: dict[str, Proposal] = {}
        self._cond = threading.Condition()
        self._listeners: list[Listener] = []
        self._write_ahead: list[WriteAhead] = []
        self._resolving: set[str] = set()
        self._waiters: dict[str, list[threading.Event]] = {}  # proposal id → its waiters
        self._events: deque[dict[str, Any]] = deque()  # published, not yet delivered
        self._delivering = False

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
        return self.add(self.draft(path, old, new, run_id=run_id, title=title))

    def draft(
        self,
        path: str,
        old: bytes | None,
        new: bytes,
        *,
        run_id: str | None = None,
        title: str | None = None,
    ) -> Proposal:
        """The proposal `propose` would add, not added."""
        change = self.change(path, old, new)
        title = title or (f"Create {change.path}" if old is None else f"Edit {change.path}")
        return self.draft_changes([change], run_id=run_id, title=title)

    def draft_changes(
        self, changes: list[FileChange], *, run_id: str | None = None, title: str
    ) -> Proposal:
        """The proposal `propose_changes` would add, not added."""
        return Proposal.build(f"prop-{uuid.uuid4().hex[:12]}", run_id, title, changes)

    def change(self, path: str, old: bytes | None, new: bytes | None) -> FileChange:
        """A FileChange of `path` (confined), based on its open document's version if open."""
        rel = self.workspace.relative(path)
        doc = self.workspace.document(rel)
        version = doc.version if doc is not None else None
        return FileChange(rel, (self.workspace.root / rel).as_uri(), old, new, version)

    def propose_changes(
        self, changes: list[FileChange], *, run_id: str | None = None, title: str
    ) -> Proposal:
        """Build and add one proposal making several file changes."""
        return self.add(self.draft_changes(changes, run_id=run_id, title=title))

    def add(self, proposal: Proposal) -> Proposal:
        with self._cond:
            self._proposals[proposal.id] = proposal
            self._publish("created", proposal)
        self._deliver()
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
                (p.created_at, c.new)
                for p in self._proposals.values()
                if p.status == "pending" and p.run_id == run_id
                for c in p.changes
                if c.path == rel and c.new is not None
            ]
        if not pending:
            return None
        return max(pending, key=lambda item: item[0])[1]

    # --- decisions -----------------------------------------------------------------
    def resolve(
        self,
        proposal_id: str,
        decision: Decision,
        comment: str | None = None,
        hunks: Sequence[int] | None = None,
        content: Mapping[str, bytes] | None = None,
        *,
        write_content: bool = False,
    ) -> Status:
        """Accept or reject; returns applied | rejected | stale | failed. Resolving twice changes nothing.

        `hunks` (with "accepted"): the indexes of the hunks to apply, the rest left out
        (DESIGN §4); ValueError when it names none or unknown ones. `content` (with
        "accepted", not with `hunks`): the user's text by workspace-relative path, which the
        client applied (checked, never overwritten) or, with `write_content`, which the
        store writes itself. The applier runs outside the store's lock (it may wait for an
        editor); a second resolve of the same proposal meanwhile waits for the first and
        returns its outcome.
        """
        if decision not in ("accepted", "rejected"):
            raise ValueError(f"decision must be 'accepted' or 'rejected', not {decision!r}")
        if hunks is not None and decision != "accepted":
            raise ValueError("hunks go with the decision 'accepted' only")
        if content is not None and decision != "accepted":
            raise ValueError("content goes with the decision 'accepted' only")
        if content is not None and hunks is not None:
            raise ValueError("send either hunks or content, not both")
        with self._cond:
            proposal = self._proposals.get(proposal_id)
            if proposal is None:
                raise KeyError(f"no proposal with id {proposal_id!r}")
            chosen = proposal.check_hunks(list(hunks)) if hunks is not None else None
            edited = proposal.check_content(dict(content)) if content is not None else None
            while proposal_id in self._resolving:
                self._cond.wait()
            if proposal.status != "pending":
                return proposal.status
            self._resolving.add(proposal_id)
        status: Status = "stale"  # if checking or applying blows up, nothing was written
        try:
            if decision == "accepted":
                proposal.accepted_hunks = chosen
                proposal.edited = edited
                status = self._apply(proposal, write=edited is None or write_content)
                if status == "applied" and proposal.partial:
                    proposal.note = proposal.left_out_note()
                elif status == "applied" and edited is not None:
                    proposal.note = proposal.edited_note() or None
                elif edited is not None:
                    proposal.edited = None  # nothing of the user's version is in place
            else:
                status = "rejected"
        finally:
            with self._cond:
                proposal.comment = comment
                proposal.status = status
                self._resolving.discard(proposal_id)
                self._cond.notify_all()
                for waiter in self._waiters.pop(proposal_id, ()):
                    waiter.set()
                self._publish("resolved", proposal)
            if status != "rejected":
                hooks.reached("resolved")
        self._deliver()
        return status

    def _apply(self, proposal: Proposal, write: bool = True) -> Status:
        """Check and write under the workspace's write lock (one writer at a time, across
        processes): applied, stale (the file changed), or failed (an OS failure);
        `write=False`: only check that the client put the targets in place (the user's
        edited text)."""
        hooks.reached("deciding")
        try:
            with WriteLock(self.workspace.root, writer(proposal)) as lock:
                return self._apply_locked(proposal, lock, write)
        except OSError as exc:  # the lock itself: no .agentls, or held too long
            return self._failed(proposal, exc, [])

    def _apply_locked(self, proposal: Proposal, lock: WriteLock, write: bool) -> Status:
        targets = proposal.targets()
        current = {c.path: self.workspace.read_bytes(c.path) for c in proposal.changes}
        if all(current[path] == data for path, data in targets.items()):
            return "applied"  # already in place (e.g. the editor applied it itself)
        if not write:
            wrong = [path for path, data in targets.items() if current[path] != data]
            proposal.note = (
                f"{', '.join(wrong)} does not hold the text the client says it applied; "
                "nothing was written"
            )
            return "stale"
        for change in proposal.changes:
            now = current[change.path]
            if now != targets[change.path] and content_hash(now) != change.base_hash:
                which = "the file" if len(proposal.changes) == 1 else change.path
                other = lock.writer_of(change.path, now)
                by = f": {other} wrote it meanwhile" if other else ""
                proposal.note = f"{which} changed since the proposal was made{by}; nothing was written"
                return "stale"
        hooks.reached("checked")
        try:
            for write_ahead in list(self._write_ahead):
                write_ahead(proposal, current, targets)
        except Exception as exc:
            why = os_failure(exc) if isinstance(exc, OSError) else str(exc)
            proposal.note = (
                f"the run's trace could not record the write first ({why}); nothing was changed"
            )
            proposal.error = {"type": "runtime", "message": proposal.note}
            return "failed"
        hooks.reached("journaled")
        try:
            self.applier(proposal)
        except OSError as exc:
            return self._failed(proposal, exc, changed_by(exc))
        except Exception as exc:
            log.warning("could not apply proposal %s to %s: %s", proposal.id, proposal.path, exc)
            proposal.note = f"it could not be applied: {exc}"
            return "stale"
        lock.record(targets, writer(proposal))
        return "applied"

    @staticmethod
    def _failed(proposal: Proposal, exc: OSError, left: Sequence[str]) -> Status:
        log.warning("could not write proposal %s to %s: %s", proposal.id, proposal.path, exc)
        changed = f"{', '.join(left)} could not be put back" if left else "nothing was changed"
        proposal.note = f"it could not be written: {os_failure(exc)}; {changed}"
        proposal.error = {"type": "runtime", "message": proposal.note}
        return "failed"

    def add_write_ahead(self, hook: WriteAhead) -> None:
        """Called (in the resolving thread, the write lock held) before every write; an
        OSError from it fails the proposal with nothing written."""
        with self._cond:
            self._write_ahead.append(hook)

    def remove_write_ahead(self, hook: WriteAhead) -> None:
        with self._cond:
            if hook in self._write_ahead:
                self._write_ahead.remove(hook)

    def wait(
        self, proposal_id: str, timeout: float | None = None, cancel: CancelEvent | None = None
    ) -> Proposal:
        """Block until the proposal is decided, `timeout` seconds pass or `cancel` is set;
        return it (still pending unless decided). The decision itself wakes the waiter."""
        woken = threading.Event()
        with self._cond:
            proposal = self._proposals.get(proposal_id)
            if proposal is None:
                raise KeyError(f"no proposal with id {proposal_id!r}")
            if proposal.status != "pending":
                return proposal
            self._waiters.setdefault(proposal_id, []).append(woken)
        unsubscribe = cancel.subscribe(woken.set) if cancel is not None else None
        try:
            woken.wait(timeout)
        finally:
            if unsubscribe is not None:
                unsubscribe()
            with self._cond:
                waiters = self._waiters.get(proposal_id)
                if waiters is not None and woken in waiters:
                    waiters.remove(woken)
                    if not waiters:
                        del self._waiters[proposal_id]
        return proposal

    # --- events --------------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        with self._cond:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._cond:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _publish(self, action: str, proposal: Proposal) -> None:
        """Queue the event (with the store's lock held, so events queue in the order the
        changes happened); `_deliver` hands it to the listeners."""
        self._events.append({"kind": "proposal", "action": action, "proposal": proposal.to_dict()})

    def _deliver(self) -> None:
        """Hand the queued events to the listeners, one event to every listener before the
        next; a call made while a delivery is under way (a listener deciding a proposal,
        another thread) leaves its events to that delivery."""
        with self._cond:
            if self._delivering:
                return
            self._delivering = True
        try:
            while True:
                with self._cond:
                    if not self._events:
                        self._delivering = False
                        return
                    event = self._events.popleft()
                    listeners = list(self._listeners)
                for listener in listeners:
                    try:
                        listener(event)
                    except Exception:
                        log.exception("proposal listener %r failed on %s", listener, event["action"])
        except BaseException:  # e.g. Ctrl-C in a terminal review: the next call delivers the rest
            with self._cond:
                self._delivering = False
            raise
