"""The run trace and the undo of a run, in the tools layer: proposals of a run recorded in
`.agentls/runs/<runId>.json` (versions, decisions, contents), then undone from a fresh
store (as after a restart): changed files put back, created files deleted, files the user
changed since skipped with the reason and left intact, unknown or malformed run ids refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentls.tools.proposals import ProposalStore
from agentls.tools.run_trace import RunTrace
from agentls.tools.undo import UndoError, undo_run
from agentls.workspace import Workspace

A, B = b"a = 1\n", b"def b():\n    return 2\n"


def _run(root: Path, run_id: str = "run-1") -> Path:
    """A 'run' that edits a.py twice, creates c.py, edits b.py partly, and has one rejected."""
    store = ProposalStore(Workspace(root))
    trace = RunTrace(root, run_id, "edit things", store, mode="dev", approval="auto")
    p1 = store.propose("a.py", A, b"a = 2\n", run_id=run_id)
    store.resolve(p1.id, "accepted")
    p2 = store.propose("a.py", b"a = 2\n", b"a = 3\n", run_id=run_id)
    store.resolve(p2.id, "accepted")
    p3 = store.propose("c.py", None, b"c = 1\n", run_id=run_id)
    store.resolve(p3.id, "accepted")
    p4 = store.propose("b.py", B, B.replace(b"2", b"4"), run_id=run_id)
    store.resolve(p4.id, "rejected", "no")
    store.propose("b.py", B, b"x = 0\n", run_id="another-run")  # not this run's
    trace.event({"runId": run_id, "kind": "tool_call", "id": "c1", "name": "edit_file",
                 "arguments": {"path": "a.py", "api_key": "sekrit-value"}})  # fmt: skip
    trace.event({"runId": run_id, "kind": "tool_result", "id": "c1", "name": "edit_file",
                 "ok": True, "durationMs": 12.5, "output": {}})  # fmt: skip
    trace.event({"runId": run_id, "kind": "finished", "status": "completed", "summary": "done"})
    return trace.path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_bytes(A)
    (tmp_path / "b.py").write_bytes(B)
    return tmp_path


def test_the_trace_records_calls_proposals_versions_and_decisions(root: Path) -> None:
    path = _run(root)
    assert path == root / ".agentls" / "runs" / "run-1.json"
    data = json.loads(path.read_text("utf-8"))
    assert (data["runId"], data["status"], data["mode"], data["summary"]) == ("run-1", "completed", "dev", "done")
    assert data["toolCalls"] == [{"id": "c1", "name": "edit_file", "t": data["toolCalls"][0]["t"],
                                  "arguments": {"path": "a.py", "api_key": "***"},
                                  "ok": True, "durationMs": 12.5, "error": None}]  # fmt: skip
    statuses = [(p["files"][0]["path"], p["status"], p["decision"]) for p in data["proposals"]]
    assert statuses == [("a.py", "applied", "accepted"), ("a.py", "applied", "accepted"),
                        ("c.py", "applied", "accepted"), ("b.py", "rejected", "rejected")]  # fmt: skip
    assert data["proposals"][0]["files"][0]["version"] is None
    assert data["proposals"][3]["comment"] == "no" and "applied" not in data["proposals"][3]
    assert "sekrit-value" not in path.read_text("utf-8")


def test_undo_from_a_fresh_store_puts_files_back_and_deletes_created_ones(root: Path) -> None:
    _run(root)
    store = ProposalStore(Workspace(root))  # as after a restart
    plan = undo_run(store, "run-1")
    assert plan.to_dict() == {"proposalId": plan.proposal.id if plan.proposal else None,
                              "files": ["a.py", "c.py"], "skipped": []}  # fmt: skip
    assert plan.proposal is not None and plan.proposal.status == "pending"
    assert (root / "a.py").read_bytes() == b"a = 3\n"  # nothing written before the review
    assert "-a = 3\n+a = 1" in plan.proposal.diff and "+++ /dev/null" in plan.proposal.diff
    assert store.resolve(plan.proposal.id, "accepted") == "applied"
    assert (root / "a.py").read_bytes() == A and not (root / "c.py").exists()
    assert (root / "b.py").read_bytes() == B
    again = undo_run(ProposalStore(Workspace(root)), "run-1")  # everything changed since
    assert again.proposal is None and [s["path"] for s in again.skipped] == ["a.py", "c.py"]


def test_a_file_changed_since_the_run_is_skipped_with_the_reason_and_left_intact(root: Path) -> None:
    _run(root)
    (root / "a.py").write_bytes(b"a = 3\nuser = True\n")
    plan = undo_run(ProposalStore(Workspace(root)), "run-1")
    assert plan.to_dict()["files"] == ["c.py"]
    assert plan.skipped == [{"path": "a.py", "reason": "it changed since run run-1 last changed it; left as it is"}]
    (root / "c.py").unlink()
    plan = undo_run(ProposalStore(Workspace(root)), "run-1")
    assert plan.proposal is None and "was deleted" in plan.skipped[1]["reason"]
    assert (root / "a.py").read_bytes() == b"a = 3\nuser = True\n"


@pytest.mark.parametrize(
    ("run_id", "message"),
    [("run-nope", "unknown run 'run-nope'"), ("../../etc/passwd", "is not a run id"),
     ("a/b", "is not a run id"), ("", "is not a run id")],  # fmt: skip
)
def test_unknown_or_malformed_run_ids_are_clear_errors(root: Path, run_id: str, message: str) -> None:
    with pytest.raises(UndoError, match=message.replace("(", r"\(")):
        undo_run(ProposalStore(Workspace(root)), run_id)


def test_a_trace_naming_a_path_outside_the_workspace_is_skipped(root: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = _run(root)
    data = json.loads(path.read_text("utf-8"))
    data["proposals"][0]["applied"][0]["path"] = "../outside.py"
    path.write_text(json.dumps(data), "utf-8")
    plan = undo_run(ProposalStore(Workspace(root)), "run-1")
    assert any(s["path"] == "../outside.py" and s["reason"].startswith("refused") for s in plan.skipped)
