"""A tool's new proposal under its approval (tools/proposals/decisions.py): `ask` waits for
the decision and is woken by it — whether it comes before the wait, during it, or not at
all (cancel) — and nothing polls."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from agentls.tools.base import CancelEvent, ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.proposals import Proposal, ProposalStore
from agentls.tools.proposals.decisions import submit
from agentls.workspace import Workspace

HOUR = 3600.0  # the proposal timeout: a wait that ends sooner was woken by something


class SpyCancel(CancelEvent):
    """Says when a waiter subscribed (it is waiting) and counts the checks made after."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = threading.Event()
        self.checks_while_waiting = 0

    def subscribe(self, callback: Any) -> Any:
        unsubscribe = super().subscribe(callback)
        self.waiting.set()
        return unsubscribe

    def is_set(self) -> bool:
        if self.waiting.is_set():
            self.checks_while_waiting += 1
        return super().is_set()


@pytest.fixture
def store(ws_root: Path) -> ProposalStore:
    return ProposalStore(Workspace(ws_root))


def context(store: ProposalStore, cancel: CancelEvent, approval: str = "ask") -> ToolContext:
    return ToolContext(
        workspace=store.workspace,
        permissions=PermissionSet.for_mode("dev"),
        proposals=store,
        run_id="run-1",
        approval=approval,  # type: ignore[arg-type]
        cancel=cancel,
        extra={"proposal_timeout_s": HOUR},
    )


def make(store: ProposalStore) -> Proposal:
    return store.propose("notes.txt", None, b"hi\n", run_id="run-1")


def submit_in_thread(ctx: ToolContext) -> tuple[threading.Thread, threading.Event, dict[str, Any]]:
    """The tool's worker thread: submit, then say it woke."""
    out: dict[str, Any] = {}
    woke = threading.Event()

    def work() -> None:
        out["result"] = submit(ctx, make)
        woke.set()

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread, woke, out


def test_a_decision_made_before_the_wait_is_not_lost(store: ProposalStore) -> None:
    store.add_listener(
        lambda e: store.resolve(e["proposal"]["id"], "accepted") if e["action"] == "created" else None
    )
    cancel = SpyCancel()
    proposal, approval, waited_out, _ = submit(context(store, cancel), make)
    assert (proposal.status, approval, waited_out) == ("applied", "ask", False)
    assert cancel.checks_while_waiting == 0


@pytest.mark.parametrize(("decision", "status"), [("accepted", "applied"), ("rejected", "rejected")])
def test_the_waiting_tool_is_woken_by_the_decision(
    store: ProposalStore, ws_root: Path, decision: str, status: str
) -> None:
    created = threading.Event()
    store.add_listener(lambda e: created.set() if e["action"] == "created" else None)
    cancel = SpyCancel()
    thread, woke, out = submit_in_thread(context(store, cancel))
    assert created.wait(10) and cancel.waiting.wait(10)  # the tool is waiting now
    assert not woke.is_set()
    (proposal,) = store.list("run-1")
    store.resolve(proposal.id, decision, "why")  # type: ignore[arg-type]
    assert woke.wait(10)  # an hour's timeout: the decision woke it
    thread.join(10)
    decided, _, waited_out, _ = out["result"]
    assert (decided.status, decided.comment, waited_out) == (status, "why", False)
    assert cancel.checks_while_waiting == 0  # nothing polled while it waited
    assert (ws_root / "notes.txt").exists() == (status == "applied")


def test_a_cancel_wakes_the_waiting_tool_and_leaves_the_proposal_pending(
    store: ProposalStore,
) -> None:
    cancel = SpyCancel()
    thread, woke, out = submit_in_thread(context(store, cancel))
    assert cancel.waiting.wait(10)
    cancel.set()
    assert woke.wait(10)
    thread.join(10)
    proposal, _, waited_out, _ = out["result"]
    assert (proposal.status, waited_out) == ("pending", True)


def test_auto_applies_at_once_and_never_leaves_it_pending(store: ProposalStore) -> None:
    applied, *_ = submit(context(store, SpyCancel(), "auto"), make)
    assert applied.status == "applied"
    pending, _, waited_out, _ = submit(
        context(store, SpyCancel(), "never"),
        lambda s: s.propose("other.txt", None, b"x\n", run_id="run-1"),
    )
    assert (pending.status, waited_out) == ("pending", False)
