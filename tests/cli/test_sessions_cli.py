"""`agentls run` sessions and plan review end to end, as a subprocess against a scripted
OpenAI-compatible endpoint: `--continue SESSION_ID|last` (the model's requests show the
earlier run's goal, report, decision and the file as it reads now), unknown sessions
(exit 2), usage in `--json`, and `--approve plan` on a terminal (a pty): edited by line
prompts or in $EDITOR (the model works on the edited tasks), or rejected (no tool runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.cli.test_run_cli import CLI, _call, _read_until, _workspace
from tests.llm.fake_openai import FakeOpenAIServer

USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _plan(*tasks: str) -> dict[str, Any]:
    return {"content": json.dumps(list(tasks)), "usage": USAGE}


def _run(root: Path, server: FakeOpenAIServer, goal: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, goal, "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url, "--json", *flags],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _texts(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


def test_continue_last_shows_the_model_the_earlier_run_and_the_file_it_changed(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    first = [
        _plan("Make main return 2"),
        _call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
        _call("finish", {"summary": "main now returns 2"}, 2),
        _plan(),
    ]
    with FakeOpenAIServer(first) as server:
        one = _run(root, server, "Make main in app.py return 2", "--mode", "dev", "--approve", "auto")
        turns = len(server.requests)
    assert one.returncode == 0, one.stderr
    result = json.loads(one.stdout)
    session_id = result["sessionId"]
    assert session_id.startswith("ses-") and f"--continue {session_id}" in one.stderr  # said to the user
    usage = result["usage"]
    assert (usage["promptTokens"], usage["completionTokens"]) == (10 * turns, 5 * turns)  # every turn counted
    assert usage["contextUsed"] == 10 and usage["contextWindow"] == 32_000  # the last turn's prompt, the window
    assert 0 <= usage["modelSeconds"] < 60 and "estimated" not in usage
    (root / "app.py").write_text("def main():\n    return 2  # reviewed\n", "utf-8")  # the user edits after

    second = [_plan("Answer"), _call("finish", {"summary": "It returns 2"}, 3), _plan()]
    with FakeOpenAIServer(second) as server:
        two = _run(root, server, "What does it return now?", "--mode", "read-only", "--continue", "last")
        seen = _texts(server.requests[0])
    assert two.returncode == 0, two.stderr
    assert json.loads(two.stdout)["sessionId"] == session_id
    assert "The user asked: Make main in app.py return 2" in seen
    assert "main now returns 2" in seen  # the earlier run's report
    assert "applied" in seen  # the decision on its proposal
    assert "return 2  # reviewed" in seen  # the file as it reads now, not as the run left it
    stored = json.loads((root / ".agentls" / "sessions" / f"{session_id}.json").read_text("utf-8"))
    assert [r["goal"] for r in stored["runs"]] == ["Make main in app.py return 2", "What does it return now?"]

    third = [_plan("Answer"), _call("finish", {"summary": "still 2"}, 4), _plan()]
    with FakeOpenAIServer(third) as server:
        again = _run(root, server, "And the run before?", "--mode", "read-only", "--continue", session_id)
        seen = _texts(server.requests[0])
    assert again.returncode == 0, again.stderr
    assert "The user asked: What does it return now?" in seen and "It returns 2" in seen


def test_an_unknown_session_is_a_clear_error_with_exit_2(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    for wanted, said in (("nosuch", "no session 'nosuch'"), ("last", "no session to continue"), ("../x", "malformed")):
        proc = subprocess.run(
            [*CLI, "x", "--workspace", str(root), "--model", "openai:m", "--base-url", "http://127.0.0.1:9", "--continue", wanted],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert proc.returncode == 2 and said in proc.stderr, (wanted, proc.stderr)
    assert not (root / ".agentls" / "runs").exists()  # nothing ran


def test_plan_without_a_terminal_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run(
        [*CLI, "x", "--workspace", str(_workspace(tmp_path)), "--model", "openai:m", "--approve", "plan"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 2 and "--approve plan needs a terminal" in proc.stderr


def _on_a_terminal(
    root: Path, server: FakeOpenAIServer, goal: str, answers: list[tuple[bytes, bytes]], env: dict[str, str] | None = None
) -> dict[str, Any]:
    """`agentls run --approve plan` on a pty: each (prompt awaited, line typed) in turn."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [*CLI, goal, "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url,
         "--mode", "read-only", "--approve", "plan", "--json"],
        stdin=slave, stderr=slave, stdout=subprocess.PIPE, close_fds=True, env={**os.environ, **(env or {})},
    )  # fmt: skip
    os.close(slave)
    try:
        for prompt, line in answers:
            _read_until(master, prompt)
            os.write(master, line)
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
    result: dict[str, Any] = json.loads(out)
    result["exit"] = proc.returncode
    return result


def test_a_plan_edited_on_the_terminal_is_what_the_model_works_on(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    script = [
        _plan("Read app.py", "Read README.md"),
        _call("read_file", {"path": "app.py"}, 1),
        _call("finish", {"summary": "main returns 1"}, 2),
        _plan(),  # nothing to add after the first task
        _call("finish", {"summary": "main returns 1, checked"}, 3),
        _plan(),
    ]
    answers = [
        (b"Run this plan? [y/e/N]", b"e\n"),
        (b"Task 1 (Read app.py)", b"\n"),  # kept
        (b"Task 2 (Read README.md)", b"Check what main returns\n"),  # replaced
        (b"Add a task", b"\n"),
        (b"Run the edited plan? [y/N]", b"y\n"),
    ]
    with FakeOpenAIServer(script) as server:
        result = _on_a_terminal(root, server, "What does main return?", answers, env={"EDITOR": "", "VISUAL": ""})
        requests = list(server.requests)
    assert result["exit"] == 0, json.dumps(result)
    assert [t["title"] for t in result["tasks"]] == ["Read app.py", "Check what main returns"]
    later = "\n".join(_texts(r) for r in requests[1:])
    assert "Check what main returns" in later and "Read README.md" not in later


def test_a_plan_edited_in_the_editor_is_what_the_model_works_on(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    editor = tmp_path / "editor.py"  # the user's $EDITOR: replaces the plan with one task
    editor.write_text("import sys\nopen(sys.argv[1], 'w').write('# kept comment\\nTell what main returns\\n')\n", "utf-8")
    script = [_plan("Read app.py", "Read README.md"), _call("finish", {"summary": "main returns 1"}, 1), _plan()]
    answers = [(b"Run this plan? [y/e/N]", b"e\n"), (b"Run the edited plan? [y/N]", b"y\n")]
    with FakeOpenAIServer(script) as server:
        result = _on_a_terminal(root, server, "What does main return?", answers, env={"VISUAL": "", "EDITOR": f"{sys.executable} {editor}"})
        requests = list(server.requests)
    assert result["exit"] == 0, json.dumps(result)
    assert [t["title"] for t in result["tasks"]] == ["Tell what main returns"]
    assert "Tell what main returns" in _texts(requests[1])


def test_a_rejected_plan_runs_no_tool(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    script = [_plan("Rewrite app.py"), _call("write_file", {"path": "app.py", "content": "x = 1\n"}, 1)]
    answers = [(b"Run this plan? [y/e/N]", b"n\n"), (b"Why not?", b"too risky\n")]
    with FakeOpenAIServer(script) as server:
        result = _on_a_terminal(root, server, "Rewrite app.py", answers)
        requests = list(server.requests)
    assert result["exit"] == 1 and result["status"] == "cancelled"
    assert "the user rejected the plan: too risky" in result["summary"]
    assert len(requests) == 1 and "tools" not in requests[0]  # the planning turn only
    assert result["steps"] == 0 and result["tasks"] == []
    trace = json.loads((root / ".agentls" / "runs" / f"{result['runId']}.json").read_text("utf-8"))
    assert not [e for e in trace["events"] if e.get("kind") == "tool_call"]
    assert [e["action"] for e in trace["events"] if e.get("kind") == "plan"] == ["asked", "rejected"]
