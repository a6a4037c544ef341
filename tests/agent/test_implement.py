"""Implementing a stub from its description until its tests pass (issue 24): the small
policy offers one writer held to the stub, the description and the tests are in the
prompt with the tests' failures, each write runs the tests and their compact failures go
back, and the run ends by itself — verified — once they pass. Driven through the real
loop, real tools and a real sandboxed pytest by scripted transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentls.agent.agent import RunSettings

from .conftest import RunAgent, act, finish

pytestmark = pytest.mark.skipif(
    __import__("shutil").which("bwrap") is None
    or __import__("agentls.tools.sandbox", fromlist=["x"]).bubblewrap_status()[0] is None,
    reason="bubblewrap unusable here: the workspace's tests run in its sandbox",
)
FULL = RunSettings(mode="full", approval="auto")
STUB = "def clamp(value, low, high):\n    pass\n"
WRONG = "def clamp(value, low, high):\n    return max(value, low)\n"
RIGHT = "def clamp(value, low, high):\n    return min(max(value, low), high)\n"


@pytest.fixture
def exercise(ws_root: Path) -> Path:
    (ws_root / ".docs").mkdir()
    (ws_root / ".docs" / "instructions.md").write_text("# Clamp\n\nLimit `value` to the range from `low` to `high`.\n")
    (ws_root / "clamp.py").write_text(STUB)
    (ws_root / "clamp_test.py").write_text(
        "from clamp import clamp\n\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n\n\n"
        "def test_above():\n    assert clamp(15, 0, 10) == 10\n"
    )
    return ws_root


async def test_a_stub_is_written_whole_until_its_tests_pass_and_the_run_ends_verified(
    run_agent: RunAgent, exercise: Path
) -> None:
    script = [
        act("write_file", {"path": "clamp.py", "content": WRONG}),
        act("write_file", {"path": "clamp.py", "content": RIGHT}),
        finish("never reached"),
    ]
    out = await run_agent(script, goal="clamp.py has only a stub. Make it do what the instructions say.", settings=FULL, small=True)
    assert out.state.status == "completed", out.state.error
    assert (exercise / "clamp.py").read_text() == RIGHT
    first, second = out.acting()
    # one writer, held to the stub; the description and the tests are in the prompt
    assert first.tools == ["write_file", "finish"]
    (spec,) = [s for s in first.specs if s["function"]["name"] == "write_file"]
    assert spec["function"]["parameters"]["properties"]["path"]["enum"] == ["clamp.py"]
    assert "Limit `value` to the range" in first.text() and "def test_above():" in first.text()
    # the wrong version's failures came back in compact form
    told = second.messages[-1]["content"]
    assert "clamp_test.py::test_above" in told and "assert 15 == 10" in told
    # the next try is written afresh: the prompt shows the stub as the run began and the
    # failed version only as its failures (a small model copies the code it is shown)
    shown = second.text() + json.dumps([m.get("tool_calls") for m in second.messages])
    assert "return max(value, low)" not in shown
    assert "clamp.py as the run began (your last version failed its checks, 1 time(s)" in shown and STUB in shown
    # the passing tests ended the run: no finish turn, verified by the tests
    assert len(out.acting()) == 2
    verification = out.state.verification or {}
    assert verification["verified"] is True
    assert any(c["kind"] == "tests" and c["passed"] for c in verification["checks"])
    assert (out.state.summary or "").startswith("Changed clamp.py (+1 −1): applied.\nTests passed: 2 passed")


async def test_in_dev_mode_the_tests_are_not_run_and_the_run_says_so(run_agent: RunAgent, exercise: Path) -> None:
    script = [act("write_file", {"path": "clamp.py", "content": WRONG}), finish("Implemented clamp.")]
    out = await run_agent(script, goal="Implement clamp in clamp.py per the instructions.",
                          settings=RunSettings(mode="dev", approval="auto"), small=True)  # fmt: skip
    assert out.state.status == "completed"
    verification = out.state.verification or {}
    assert verification["verified"] is None
    assert verification["unverified"] == "the tests were not run (mode 'dev' may not run processes)"
    assert "Not verified: the tests were not run" in (out.state.summary or "")


async def test_a_goal_to_fix_failing_tests_starts_from_their_failures(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "clamp.py").write_text(WRONG)
    (ws_root / "clamp_test.py").write_text(
        "from clamp import clamp\n\n\ndef test_above():\n    assert clamp(15, 0, 10) == 10\n"
    )
    script = [act("edit_file", {"path": "clamp.py", "old": "return max(value, low)", "new": "return min(max(value, low), high)"})]
    out = await run_agent(script, goal="clamp_test.py fails; fix clamp so it passes", settings=FULL, small=True)
    assert out.state.status == "completed", out.state.error
    (first,) = out.acting()
    shown = first.text()
    assert "The workspace's tests as the run began:" in shown and "assert 15 == 10" in shown
    assert (out.state.verification or {})["verified"] is True


async def test_the_same_wrong_version_again_is_turned_away_but_the_writer_stays_offered(
    run_agent: RunAgent, exercise: Path
) -> None:
    wrong = act("write_file", {"path": "clamp.py", "content": WRONG})
    script = [wrong, wrong, act("write_file", {"path": "clamp.py", "content": RIGHT})]
    out = await run_agent(script, goal="Implement clamp in clamp.py per the instructions.", settings=FULL, small=True)
    assert out.state.status == "completed", out.state.error
    third = out.acting()[2]
    assert "it was not used: Not run: this exact write_file call already succeeded" in third.messages[-1]["content"]
    assert "return max(value, low)" not in third.text()  # nor its code: written afresh
    assert third.tools == ["write_file", "finish"]  # not banned: the next, different version needs it


async def test_passing_tests_that_never_call_the_function_verify_nothing(run_agent: RunAgent, exercise: Path) -> None:
    (exercise / "clamp_test.py").write_text("from clamp import clamp  # noqa: F401\n\n\ndef test_imports():\n    assert True\n")
    out = await run_agent([act("write_file", {"path": "clamp.py", "content": WRONG})],
                          goal="Implement clamp in clamp.py per the instructions.", settings=FULL, small=True)  # fmt: skip
    assert out.state.status == "completed", out.state.error
    verification = out.state.verification or {}
    assert verification["verified"] is None
    assert verification["unverified"] == "the tests pass, but none of them calls clamp"
    assert "Not verified: the tests pass, but none of them calls clamp." in (out.state.summary or "")


async def test_after_four_failed_tries_no_write_is_offered_and_the_run_ends_failed(run_agent: RunAgent, exercise: Path) -> None:
    tries = [act("write_file", {"path": "clamp.py", "content": WRONG + "\n" * i}) for i in range(4)]
    gave_up = act("finish", {"summary": "I could not make clamp pass its tests."})
    out = await run_agent([*tries, *[gave_up] * 4], goal="Implement clamp in clamp.py per the instructions.",
                          settings=FULL, small=True)  # fmt: skip
    assert out.state.status == "failed"
    assert [t.tools for t in out.acting()][4] == ["finish"]  # after 4 failed tries: only finish
