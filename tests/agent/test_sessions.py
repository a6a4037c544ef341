"""Sessions (DESIGN §9) on disk: created, recorded after each run, loaded after a restart;
malformed and unknown ids are errors, never paths; what a new run is told of the earlier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentls.agent.builtin.conversation import earlier_text
from agentls.agent.sessions import EARLIER_RUNS, SessionError, SessionStore


def _result(n: int, status: str = "completed", verified: bool | None = True) -> dict[str, object]:
    return {"runId": f"run-{n}", "goal": f"goal {n}", "status": status, "summary": f"did {n}",
            "verification": {"verified": verified, "checks": []}}  # fmt: skip


def test_a_session_survives_a_restart(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.create()
    session.record(_result(1), [{"id": "prop-1", "title": "Edit app.py", "status": "rejected", "comment": "no"}])
    session.record(_result(2, "failed", False), [])
    again = SessionStore(tmp_path).load(session.session_id)  # a new process
    assert [r["goal"] for r in again.runs] == ["goal 1", "goal 2"]
    assert again.title == "goal 1" and again.runs[0]["proposals"][0]["status"] == "rejected"
    data = json.loads((tmp_path / ".agentls" / "sessions" / f"{session.session_id}.json").read_text())
    assert data["sessionId"] == session.session_id and len(data["runs"]) == 2
    assert [s.session_id for s in SessionStore(tmp_path).list()] == [session.session_id]


@pytest.mark.parametrize("bad", ["../../etc/passwd", "", "a/b", None, 7, "x" * 100])
def test_malformed_ids_are_errors_not_paths(tmp_path: Path, bad: object) -> None:
    with pytest.raises(SessionError, match="malformed"):
        SessionStore(tmp_path).load(bad)


def test_unknown_and_unreadable_sessions_are_errors(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    with pytest.raises(SessionError, match="no session"):
        store.load("ses-0000")
    folder = tmp_path / ".agentls" / "sessions"
    folder.mkdir(parents=True)
    (folder / "ses-broken.json").write_text("{not json")
    with pytest.raises(SessionError, match="cannot be read"):
        store.load("ses-broken")
    assert store.list() == []  # an unreadable file is left out, not fatal


def test_a_new_run_is_told_the_newest_earlier_runs(tmp_path: Path) -> None:
    session = SessionStore(tmp_path).create()
    for n in range(EARLIER_RUNS + 3):
        session.record(_result(n), [])
    earlier = session.earlier()
    assert len(earlier) == EARLIER_RUNS and earlier[-1]["goal"] == f"goal {EARLIER_RUNS + 2}"
    text = earlier_text(earlier)
    assert "The user asked: goal 3" in text and "completed, verified" in text and "did 3" in text
    rejected = earlier_text(({"goal": "g", "status": "completed", "verified": None, "summary": "s",
                              "proposals": [{"title": "Edit a.py", "status": "rejected", "comment": "not like that"}]},))  # fmt: skip
    assert "completed, unverified" in rejected and "Edit a.py: rejected (the user said: not like that)" in rejected
