"""Edit before accept in the store (DESIGN §9): a proposal accepted with the user's text.
The client applied it — the file (buffer or disk) must hold it, else stale, and the store
writes nothing; the terminal, its own client, has the store write it from the proposal's
base. The model's note is the diff from proposed to applied, the trace keeps the applied
text, and undo puts back the text from before the proposal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentls.tools.proposals import ProposalStore
from agentls.tools.run_trace import RunTrace, decode
from agentls.tools.undo import undo_run
from agentls.workspace import Workspace

OLD, NEW, USERS = b"x = 1\n", b"x = 2\n", b"x = 20  # mine\n"


@pytest.fixture
def store(tmp_path: Path) -> ProposalStore:
    (tmp_path / "a.py").write_bytes(OLD)
    return ProposalStore(Workspace(tmp_path))


def test_content_the_client_applied_is_checked_never_overwritten_and_explained(store: ProposalStore) -> None:
    written: list[str] = []
    store.applier = lambda p: written.append(p.id)
    proposal = store.propose("a.py", OLD, NEW, run_id="run-1")
    (store.workspace.root / "a.py").write_bytes(USERS)
    assert store.resolve(proposal.id, "accepted", content={"a.py": USERS}) == "applied"
    assert written == [] and (store.workspace.root / "a.py").read_bytes() == USERS
    assert proposal.targets() == {"a.py": USERS} and proposal.edited_paths == ["a.py"]
    note = proposal.note or ""
    assert "--- proposed/a.py" in note and "+++ applied/a.py" in note
    assert "-x = 2" in note and "+x = 20  # mine" in note
    assert proposal.to_dict()["edited"] == ["a.py"]


def test_content_the_document_does_not_hold_is_stale_even_from_an_open_buffer(store: ProposalStore) -> None:
    written: list[str] = []
    store.applier = lambda p: written.append(p.id)
    store.workspace.open("a.py", USERS.decode(), version=3)  # the buffer holds it, the disk does not
    buffered = store.propose("a.py", USERS, b"x = 3\n", run_id="run-1")
    assert store.resolve(buffered.id, "accepted", content={"a.py": USERS + b"# more\n"}) == "stale"
    assert "does not hold the text" in (buffered.note or "") and buffered.edited_paths == []
    store.workspace.close("a.py")
    proposal = store.propose("a.py", OLD, NEW, run_id="run-1")
    assert store.resolve(proposal.id, "accepted", content={"a.py": USERS}) == "stale"  # still OLD
    assert written == [] and (store.workspace.root / "a.py").read_bytes() == OLD


def test_the_terminal_has_the_store_write_the_users_version_from_the_base(store: ProposalStore) -> None:
    proposal = store.propose("a.py", OLD, NEW, run_id="run-1")
    assert store.resolve(proposal.id, "accepted", content={"a.py": USERS}, write_content=True) == "applied"
    assert (store.workspace.root / "a.py").read_bytes() == USERS
    moved = store.propose("a.py", USERS, b"y\n", run_id="run-1")
    (store.workspace.root / "a.py").write_bytes(b"someone else's\n")
    assert store.resolve(moved.id, "accepted", content={"a.py": b"z\n"}, write_content=True) == "stale"
    assert (store.workspace.root / "a.py").read_bytes() == b"someone else's\n"


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"content": {"b.py": b"x"}}, "does not change b.py"),
        ({"content": {}}, "at least one file"),
        ({"content": {"a.py": b"x"}, "hunks": [0]}, "either hunks or content"),
    ],
)
def test_bad_content_is_a_value_error_and_the_proposal_stays_pending(
    store: ProposalStore, kwargs: dict, said: str
) -> None:
    proposal = store.propose("a.py", OLD, NEW, run_id="run-1")
    with pytest.raises(ValueError, match=said):
        store.resolve(proposal.id, "accepted", **kwargs)
    with pytest.raises(ValueError, match="'accepted' only"):
        store.resolve(proposal.id, "rejected", content={"a.py": b"x"})
    deleting = store.propose_changes([store.change("a.py", OLD, None)], title="Delete a.py")
    with pytest.raises(ValueError, match="deletes a.py"):
        store.resolve(deleting.id, "accepted", content={"a.py": b"x"})
    assert proposal.status == "pending" and deleting.status == "pending"


def test_the_trace_keeps_the_applied_text_and_undo_restores_the_text_before_the_proposal(
    store: ProposalStore,
) -> None:
    root = store.workspace.root
    trace = RunTrace(root, "run-1", "edit a", store, mode="dev", approval="ask")
    proposal = store.propose("a.py", OLD, NEW, run_id="run-1")
    (root / "a.py").write_bytes(USERS)
    store.resolve(proposal.id, "accepted", content={"a.py": USERS})
    trace.event({"runId": "run-1", "kind": "finished", "status": "completed", "summary": "done"})
    data = json.loads(trace.path.read_text("utf-8"))
    record = data["proposals"][0]
    assert record["edited"] == ["a.py"] and decode(record["applied"][0]["after"]) == USERS
    fresh = ProposalStore(Workspace(root))  # as after a restart
    plan = undo_run(fresh, "run-1")
    assert plan.skipped == [] and plan.proposal is not None
    assert fresh.resolve(plan.proposal.id, "accepted") == "applied"
    assert (root / "a.py").read_bytes() == OLD
