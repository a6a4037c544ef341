"""Sessions (DESIGN §9) on disk: created, recorded after each run, loaded after a restart;
malformed and unknown ids are errors, never paths; what a new run is told of the earlier."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, RunSettings
from agentls.agent.builtin.conversation import (
    MAX_TOKENS,
    MIN_TOKENS,
    budget_tokens,
    compose,
    earlier_text,
)
from agentls.agent.builtin.history import estimate_tokens
from agentls.agent.sessions import EARLIER_RUNS, SessionError, SessionStore
from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.workspace import Workspace
from tests.agent.conftest import SpyModel, finish, plan, write_script


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


# --- what a continued run is shown, within the context budget (builtin/conversation.py) ----
def _earlier_run(n: int, files: list[str], status: str = "applied") -> dict[str, object]:
    return {"runId": f"run-{n}", "goal": f"goal {n}", "status": "completed", "verified": True,
            "summary": f"report {n}", "proposals": [{"id": f"prop-{n}", "title": f"Edit {files[0]}",
                                                     "status": status, "comment": None, "files": files}]}  # fmt: skip


def test_the_budget_is_a_share_of_the_window_in_tokens() -> None:
    assert budget_tokens(32_000) == 8000 and budget_tokens(8192) == 2048
    assert budget_tokens(1_000_000) == MAX_TOKENS and budget_tokens(100) == MIN_TOKENS


def test_the_newest_runs_and_the_files_they_changed_fit_the_budget_and_the_rest_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("A = 'as the user left it'\n", "utf-8")
    (tmp_path / "big.py").write_text("x = 1\n" * 2000, "utf-8")  # 12k characters: over the budget
    ctx = ToolContext(workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode("read-only"))
    runs = tuple(_earlier_run(n, ["big.py"] if n == 1 else ["a.py"]) for n in range(1, 41))
    runs += (_earlier_run(41, ["gone.py"]), _earlier_run(42, ["rejected.py"], status="rejected"))
    shown = compose(runs, ctx, 600)
    assert "The user asked: goal 42" in shown.text and "report 42" in shown.text
    assert "Proposal Edit rejected.py: rejected" in shown.text and "rejected.py:\n" not in shown.text
    assert "A = 'as the user left it'" in shown.text  # the file as it reads now
    assert "gone.py: no longer exists." in shown.text
    assert "The user asked: goal 1\n" not in shown.text  # the oldest did not fit
    dropped = shown.dropped or ""
    assert "oldest run(s)" in dropped and "Left out for want of room in the context: " + dropped in shown.text
    assert estimate_tokens(shown.text) <= 700  # the budget, and the lines saying what was left out
    roomy = compose(runs, ctx, MAX_TOKENS)
    assert roomy.dropped is None or "big.py" in roomy.dropped
    assert "The user asked: goal 1\n" in roomy.text


async def test_a_continued_run_says_what_did_not_fit_once(tmp_path: Path, ws_root: Path) -> None:
    runs = tuple(_earlier_run(n, ["src/app.py"]) for n in range(1, 60))
    model = SpyModel(write_script(tmp_path / "s.jsonl", [plan("Answer"), finish("ok"), plan()]))
    model.context_tokens = 1024  # a small model: 256 tokens for the earlier runs
    events: list[Any] = []
    workspace = Workspace(ws_root)
    agent = Agent(workspace=workspace, model=model, settings=RunSettings(approval="never", mode="read-only"),
                  proposals=ProposalStore(workspace), on_event=events.append, earlier=runs)  # fmt: skip
    await agent.run("And now?")
    notices = [e.data["notice"] for e in events if e.kind == "status" and "notice" in e.data]
    assert len([n for n in notices if "did not all fit" in n]) == 1
    first = "\n".join(str(m.get("content")) for m in model.turns[0].messages)
    assert "The user asked: goal 59" in first and "Left out for want of room" in first
    assert "The user asked: goal 1\n" not in first
