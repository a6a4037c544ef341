"""The examples of a description (builtin/examples.py): which ones are read, and a run
whose tests never call the function it implements checked — and corrected — by them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentls.agent.agent import RunSettings
from agentls.agent.builtin.examples import extract, results, script

from .conftest import RunAgent, act

SPEC = """# Clamp

Limit a value to a range.

    clamp(5, 0, 10) ==> 5
    clamp(15, 0, 10) -> 10
    clamp(-3, 0, 10) should return 0
    >>> clamp(7, 7, 7)
    7
    clamp("x", 0, 1) → raises    (not a literal: left out)
    other(1) ==> 2
    clamp(2, 0, 10) = 1 + 1 = 2
"""


def test_the_literal_examples_of_the_function_are_read_in_every_common_form() -> None:
    found = [(e.call, e.args, e.expected) for e in extract(SPEC, "clamp")]
    assert found == [
        ("clamp(5, 0, 10)", (5, 0, 10), 5),
        ("clamp(15, 0, 10)", (15, 0, 10), 10),
        ("clamp(-3, 0, 10)", (-3, 0, 10), 0),
        ("clamp(7, 7, 7)", (7, 7, 7), 7),
    ]
    assert [e.expected for e in extract("    clamp(2, 0, 10) ->2 - 0 = 2\n", "clamp")] == [2]


def test_the_script_says_which_examples_pass(tmp_path: Path) -> None:
    (tmp_path / "clamp.py").write_text("def clamp(v, lo, hi):\n    return max(v, lo)\n")
    run = subprocess.run([sys.executable, "-c", script("clamp", "clamp", extract(SPEC, "clamp"))],
                         cwd=tmp_path, capture_output=True, text=True, timeout=30)  # fmt: skip
    ran = results(run.stdout)
    assert ran is not None and [r[0] for r in ran] == [True, False, True, True]
    assert ran[1] == [False, "clamp(15, 0, 10)", "10", "15"]
    assert results("noise\n") is None and json.loads(json.dumps(ran)) == ran


@pytest.mark.skipif(
    __import__("shutil").which("bwrap") is None
    or __import__("agentls.tools.sandbox", fromlist=["x"]).bubblewrap_status()[0] is None,
    reason="bubblewrap unusable here: the examples run in its sandbox",
)
async def test_when_no_test_calls_the_function_the_descriptions_examples_check_it(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / ".docs").mkdir()
    (ws_root / ".docs" / "instructions.md").write_text(SPEC)
    (ws_root / "clamp.py").write_text("def clamp(value, low, high):\n    pass\n")
    (ws_root / "clamp_test.py").write_text("from clamp import clamp  # noqa: F401\n\n\ndef test_imports():\n    assert True\n")
    wrong = "def clamp(value, low, high):\n    return max(value, low)\n"
    right = "def clamp(value, low, high):\n    return min(max(value, low), high)\n"
    script_ = [act("write_file", {"path": "clamp.py", "content": wrong}), act("write_file", {"path": "clamp.py", "content": right})]
    out = await run_agent(script_, goal="Implement clamp in clamp.py per the instructions.",
                          settings=RunSettings(mode="full", approval="auto"), small=True)  # fmt: skip
    assert out.state.status == "completed", out.state.error
    told = out.acting()[1].messages[-1]["content"]
    assert "the description's examples fail: 1 of 4" in told and "clamp(15, 0, 10): expected 10, got 15" in told
    verification = out.state.verification or {}
    assert verification["verified"] is True
    assert [c["kind"] for c in verification["checks"] if c["passed"]].count("examples") == 1
    assert "Examples passed: 4 examples pass" in (out.state.summary or "")


@pytest.mark.skipif(
    __import__("shutil").which("bwrap") is None
    or __import__("agentls.tools.sandbox", fromlist=["x"]).bubblewrap_status()[0] is None,
    reason="bubblewrap unusable here: the examples run in its sandbox",
)
async def test_failing_examples_are_never_a_completed_run(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / ".docs").mkdir()
    (ws_root / ".docs" / "instructions.md").write_text(SPEC)
    (ws_root / "clamp.py").write_text("def clamp(value, low, high):\n    pass\n")
    wrong = "def clamp(value, low, high):\n    return max(value, low)\n"
    finish_ = act("finish", {"summary": "Implemented clamp; the tests pass."})
    out = await run_agent([act("write_file", {"path": "clamp.py", "content": wrong}), *[finish_] * 5],
                          goal="Implement clamp in clamp.py per the instructions.",
                          settings=RunSettings(mode="full", approval="auto"), small=True)  # fmt: skip
    assert out.state.status == "failed"
    assert out.state.error and "the description's examples fail" in out.state.error
    assert (out.state.verification or {})["verified"] is False
    assert "the tests pass" not in (out.state.summary or "")  # the claim the facts contradict is dropped
