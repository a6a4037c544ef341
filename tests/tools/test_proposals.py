"""The proposal store: creation, overlay, staleness, decisions, waiting, listeners."""

from __future__ import annotations

import errno
import threading
from pathlib import Path

import pytest

from agentls.tools.proposals import Proposal, ProposalStore
from agentls.workspace import Workspace


@pytest.fixture
def workspace(ws_root: Path) -> Workspace:
    return Workspace(ws_root)


@pytest.fixture
def store(workspace: Workspace) -> ProposalStore:
    return ProposalStore(workspace)


APP_OLD = b"def main():\n    return 1\n"
APP_NEW = b"def main():\n    return 2\n"


def test_propose_an_edit_to_an_existing_file(store, ws_root):
    p = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="r1")
    assert p.status == "pending" and p.path == "src/app.py" and p.run_id == "r1"
    assert p.uri == (ws_root / "src" / "app.py").as_uri()
    assert p.title == "Edit src/app.py"
    assert "-    return 1\n+    return 2\n" in p.diff
    (change,) = p.edit["documentChanges"]
    assert change["textDocument"] == {"uri": p.uri, "version": None}
    assert change["edits"][0]["range"]["start"] == {"line": 1, "character": 0}
    assert store.get(p.id) is p and store.list() == [p]
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD  # proposing writes nothing


def test_an_open_document_gives_its_version(store, workspace):
    workspace.open("src/app.py", APP_OLD.decode(), version=7)
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert p.edit["documentChanges"][0]["textDocument"]["version"] == 7


def test_propose_a_new_file(store):
    p = store.propose("pkg/new.py", None, b"x = 1\n")
    assert p.is_new_file and p.title == "Create pkg/new.py"
    assert p.edit["documentChanges"][0]["kind"] == "create"


def test_accepting_applies_atomically(store, ws_root):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "accepted") == "applied"
    assert (ws_root / "src" / "app.py").read_bytes() == APP_NEW
    assert [f.name for f in (ws_root / "src").iterdir()] == ["app.py"]  # no temp file left


def test_accepting_a_new_file_creates_its_folders(store, ws_root):
    p = store.propose("pkg/sub/new.py", None, b"x = 1\n")
    assert store.resolve(p.id, "accepted") == "applied"
    assert (ws_root / "pkg" / "sub" / "new.py").read_bytes() == b"x = 1\n"


def test_rejecting_keeps_the_file_and_the_comment(store, ws_root):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "rejected", "use 3") == "rejected"
    assert p.comment == "use 3"
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD


@pytest.mark.parametrize("how", ["disk", "buffer", "created"])
def test_a_changed_file_makes_the_proposal_stale_and_untouched(store, workspace, ws_root, how):
    target = ws_root / "src" / "app.py"
    if how == "created":
        p = store.propose("src/other.py", None, b"new\n")
        target = ws_root / "src" / "other.py"
        target.write_bytes(b"someone else\n")
    else:
        p = store.propose("src/app.py", APP_OLD, APP_NEW)
        if how == "disk":
            target.write_bytes(b"def main():\n    return 42\n")
        else:
            workspace.open("src/app.py", "def main():\n    return 'buffer'\n", version=3)
    before = target.read_bytes()
    assert store.resolve(p.id, "accepted") == "stale"
    assert target.read_bytes() == before
    assert "changed since the proposal was made" in (p.note or "")


def test_content_already_equal_to_the_proposal_counts_as_applied(store, ws_root):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    (ws_root / "src" / "app.py").write_bytes(APP_NEW)  # e.g. the editor applied it itself
    assert store.resolve(p.id, "accepted") == "applied"


def test_resolving_twice_changes_nothing(store, ws_root):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "rejected") == "rejected"
    assert store.resolve(p.id, "accepted") == "rejected"
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD


@pytest.mark.parametrize(
    ("pid", "decision", "error"), [("nope", "accepted", KeyError), (None, "maybe", ValueError)]
)
def test_bad_resolutions(store, pid, decision, error):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    with pytest.raises(error):
        store.resolve(pid or p.id, decision)


def test_an_os_failure_of_the_applier_fails_the_proposal_as_a_runtime_error(workspace, ws_root):
    def fail(p: Proposal) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(ws_root / "src" / "app.py"))

    store = ProposalStore(workspace, applier=fail)
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "accepted") == "failed"
    assert p.error == {"type": "runtime", "message": p.note}
    assert "Read-only file system (EROFS)" in (p.note or "") and "nothing was changed" in (p.note or "")
    assert "stale" not in (p.note or "")


def test_an_editor_refusing_the_edit_leaves_the_proposal_stale_with_a_note(workspace, ws_root):
    def refuse(p: Proposal) -> None:
        raise RuntimeError("the editor did not apply it (version mismatch)")

    store = ProposalStore(workspace, applier=refuse)
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "accepted") == "stale"
    assert "version mismatch" in (p.note or "")


def test_a_custom_applier_is_used(workspace, ws_root):
    applied: list[str] = []
    store = ProposalStore(workspace, applier=lambda p: applied.append(p.id))
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(p.id, "accepted") == "applied"
    assert applied == [p.id]
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD


def test_overlay_is_the_newest_pending_content_of_the_run(store):
    assert store.overlay("r1", "src/app.py") is None
    first = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="r1")
    second = store.propose("src/app.py", APP_NEW, b"v3\n", run_id="r1")
    store.propose("src/app.py", APP_OLD, b"other run\n", run_id="r2")
    assert store.overlay("r1", "src/app.py") == b"v3\n"
    assert store.overlay("r1", "./src/../src/app.py") == b"v3\n"
    assert store.overlay("r2", "src/app.py") == b"other run\n"
    store.resolve(second.id, "rejected")
    assert store.overlay("r1", "src/app.py") == APP_NEW
    store.resolve(first.id, "rejected")
    assert store.overlay("r1", "src/app.py") is None
    assert [p.run_id for p in store.list("r1")] == ["r1", "r1"]


def test_chained_proposals_apply_in_order_and_out_of_order_is_stale(store, ws_root):
    first = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="r1")
    second = store.propose("src/app.py", APP_NEW, b"v3\n", run_id="r1")
    assert store.resolve(second.id, "accepted") == "stale"
    assert store.resolve(first.id, "accepted") == "applied"
    third = store.propose("src/app.py", APP_NEW, b"v4\n", run_id="r1")
    assert store.resolve(third.id, "accepted") == "applied"
    assert (ws_root / "src" / "app.py").read_bytes() == b"v4\n"


def test_wait_returns_on_resolution_from_another_thread(store):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    threading.Timer(0.05, store.resolve, args=(p.id, "rejected", "no")).start()
    assert store.wait(p.id, timeout=5).status == "rejected"


def test_wait_times_out_with_the_proposal_still_pending(store):
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.wait(p.id, timeout=0.05).status == "pending"


def test_listeners_hear_creation_and_resolution(store, caplog):
    events: list[dict] = []
    store.add_listener(events.append)
    store.add_listener(lambda e: 1 / 0)  # a broken listener is logged, not raised
    p = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="r1")
    store.resolve(p.id, "rejected", "nope")
    assert [(e["kind"], e["action"], e["proposal"]["status"]) for e in events] == [
        ("proposal", "created", "pending"),
        ("proposal", "resolved", "rejected"),
    ]
    payload = events[0]["proposal"]
    assert {"id", "runId", "uri", "title", "diff", "edit"} <= set(payload)
    assert payload["runId"] == "r1" and events[1]["proposal"]["comment"] == "nope"
    assert "ZeroDivisionError" in caplog.text
    store.remove_listener(events.append)
    store.propose("src/app.py", APP_OLD, APP_NEW)
    assert len(events) == 2


def test_concurrent_accepts_apply_once(workspace):
    calls: list[str] = []
    gate = threading.Event()

    def slow(p: Proposal) -> None:
        calls.append(p.id)
        gate.wait(1)

    store = ProposalStore(workspace, applier=slow)
    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(store.resolve(p.id, "accepted")))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert calls == [p.id] and results == ["applied"] * 4


def test_a_decision_made_on_hearing_of_the_creation_reaches_every_listener_after_it(store):
    """The CLI's reviewer decides while the store announces the proposal: a listener added
    after it still hears the creation first (no listener needs an early-decision buffer)."""
    heard: dict[str, list[tuple[str, str]]] = {"reviewer": [], "later": []}

    def reviewer(event: dict) -> None:
        heard["reviewer"].append((event["action"], event["proposal"]["status"]))
        if event["action"] == "created":
            assert store.resolve(event["proposal"]["id"], "accepted") == "applied"

    store.add_listener(reviewer)
    store.add_listener(lambda e: heard["later"].append((e["action"], e["proposal"]["status"])))
    p = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="r1")
    assert p.status == "applied"
    expected = [("created", "pending"), ("resolved", "applied")]
    assert heard == {"reviewer": expected, "later": expected}


def test_every_listener_hears_the_events_of_many_threads_in_one_order(store):
    orders: list[list[tuple[str, str]]] = [[], []]
    for order in orders:
        store.add_listener(lambda e, order=order: order.append((e["action"], e["proposal"]["id"])))

    def work(n: int) -> None:
        for i in range(20):
            p = store.propose(f"f{n}_{i}.txt", None, b"x\n")
            store.resolve(p.id, "rejected")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(orders[0]) == 4 * 20 * 2 and orders[0] == orders[1]
    seen: set[str] = set()
    for action, pid in orders[0]:
        assert (action == "created") == (pid not in seen), (action, pid)
        seen.add(pid)


def test_wait_is_woken_by_the_cancel_event(store):
    from agentls.tools.base import CancelEvent

    p = store.propose("src/app.py", APP_OLD, APP_NEW)
    cancel = CancelEvent()
    threading.Timer(0.05, cancel.set).start()
    assert store.wait(p.id, timeout=3600, cancel=cancel).status == "pending"
    cancel.set()  # already set: a new wait returns at once
    assert store.wait(p.id, timeout=3600, cancel=cancel).status == "pending"
