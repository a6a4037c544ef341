"""`agentls run` end to end, as a subprocess: against a fake OpenAI-compatible server
(the real openai provider and the real loop and tools), and with a recorded transcript on
a terminal where the user rejects a proposal with a comment."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.llm.fake_openai import FakeOpenAIServer

CLI = [sys.executable, "-m", "agentls.cli", "run"]


def _call(name: str, arguments: dict[str, object], n: int) -> dict[str, object]:
    return {"tool_calls": [{"id": f"call_{n}", "name": name, "arguments": json.dumps(arguments)}], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n", "utf-8")
    return root


def test_run_against_an_openai_compatible_endpoint(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    script = [
        {"content": '["Read app.py"]'},
        _call("read_file", {"path": "app.py"}, 1),
        _call("finish", {"summary": "main returns 1"}, 2),
        {"content": "[]"},
    ]
    with FakeOpenAIServer(script) as server:
        proc = subprocess.run(
            [*CLI, "What does main return?", "--workspace", str(root), "--model", "openai:test-model",
             "--base-url", server.base_url, "--mode", "read-only", "--json"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["status"] == "completed" and result["summary"] == "main returns 1\n(Answered from app.py; no file changed.)"
    assert result["verification"]["verified"] is True  # the answer names the 1 that app.py holds
    assert result["steps"] == 2 and result["tasks"] == [{"title": "Read app.py", "status": "done"}]
    planning, acting, after_tool = server.requests[0], server.requests[1], server.requests[2]
    assert "tools" not in planning and all(r["model"] == "test-model" for r in server.requests)
    offered = {t["function"]["name"] for t in acting["tools"]}
    assert {"read_file", "finish"} <= offered and "write_file" not in offered  # read-only mode
    tool_msg = next(m for m in after_tool["messages"] if m["role"] == "tool")
    assert tool_msg["tool_call_id"] == "call_1" and "return 1" in tool_msg["content"]
    assert "→ read_file" in proc.stderr and "task" in proc.stderr  # progress on stderr


def test_three_bad_replies_fail_the_run_with_exit_1(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    bad = {"content": "I would rather chat."}
    with FakeOpenAIServer([{"content": '["x"]'}, bad, bad, bad]) as server:
        proc = subprocess.run(
            [*CLI, "Do x", "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url, "--json"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
    result = json.loads(proc.stdout)
    assert (proc.returncode, result["status"]) == (1, "failed")
    assert "3" in (result["summary"] or "") or "bad repl" in proc.stderr


def test_unknown_model_spec_is_a_clear_error(tmp_path: Path) -> None:
    proc = subprocess.run([*CLI, "x", "--workspace", str(_workspace(tmp_path)), "--model", "gpt-9"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "openai:" in proc.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["   "], "the goal must not be empty"),
        (["x", "--max-steps", "0"], "maxSteps must be from 1 to 1000, got 0"),
    ],
)
def test_a_bad_request_is_refused_before_any_model_is_made(tmp_path: Path, args: list[str], said: str) -> None:
    root = _workspace(tmp_path)
    proc = subprocess.run([*CLI, *args, "--workspace", str(root), "--model", "gpt-9"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and f"agentls: {said}" in proc.stderr
    assert "openai:" not in proc.stderr  # the request, not the (bad) model spec, was refused
    assert not (root / ".agentls" / "runs").exists()


def test_auto_outside_dev_or_full_is_asked_about_and_recorded_as_followed(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    with FakeOpenAIServer([{"content": '["x"]'}, _call("finish", {"summary": "ok"}, 1), {"content": "[]"}]) as server:
        proc = subprocess.run(
            [*CLI, "What is in app.py?", "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url,
             "--mode", "read-only", "--approve", "auto", "--json"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
    assert proc.returncode == 0, proc.stderr
    assert "--approve auto needs mode dev or full (got read-only)" in proc.stderr
    run_id = json.loads(proc.stdout)["runId"]
    trace = json.loads((root / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
    assert (trace["mode"], trace["approval"]) == ("read-only", "never")  # no terminal: never


def _read_until(fd: int, needle: bytes, timeout: float = 30.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    assert needle in seen, seen[-2000:]
    return seen


def test_a_rejection_on_the_terminal_reaches_the_model_with_its_comment(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    script = tmp_path / "script.jsonl"
    turns = [
        {"response": {"content": '["Rename main"]'}},
        {"response": _call("edit_file", {"path": "app.py", "old": "def main", "new": "def Main"}, 1)},
        {"response": _call("finish", {"summary": "left as is"}, 2)},
        {"response": _call("finish", {"summary": "left as is: the user said no"}, 3)},
        {"response": {"content": "[]"}},
    ]
    script.write_text("".join(json.dumps(t) + "\n" for t in turns), "utf-8")
    record = tmp_path / "record.jsonl"
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [*CLI, "Rename main", "--workspace", str(root), "--model", f"replay:{script}", "--record", str(record), "--json"],
        stdin=slave, stderr=slave, stdout=subprocess.PIPE, close_fds=True,
    )
    os.close(slave)
    try:
        _read_until(master, b"Apply this change? [y/N]")
        os.write(master, b"n\n")
        _read_until(master, b"Why not?")
        os.write(master, b"use snake_case\n")
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
    result = json.loads(out)
    # the goal asked for a change and none was made: the run is honest about it
    assert result["status"] == "failed" and len(result["proposals"]) == 1
    assert proc.returncode == 1
    assert "the run changed no file" in result["summary"]
    assert (root / "app.py").read_text("utf-8").startswith("def main")  # nothing applied
    recorded = [json.loads(line) for line in record.read_text("utf-8").splitlines()]
    after_edit = json.dumps(recorded[2]["request"])
    assert "rejected" in after_edit and "use snake_case" in after_edit


def test_an_unconfined_shell_is_said_once_on_stderr_and_in_the_trace(tmp_path: Path) -> None:
    """shellSandbox "none" (the user's choice): the run states it once on its progress
    stream and in .agentls/runs/<runId>.json; its commands report sandbox none."""
    root = _workspace(tmp_path)
    script = [
        {"content": '["List the files"]'},
        _call("run_command", {"command": "ls"}, 1),
        _call("finish", {"summary": "listed"}, 2),
        {"content": "[]"},
    ]
    settings = json.dumps({"shellSandbox": "none"})
    with FakeOpenAIServer(script) as server:
        proc = subprocess.run(
            [*CLI, "List the files", "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url,
             "--mode", "ci", "--settings", settings, "--json"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("WITHOUT an OS sandbox") == 1
    run_id = json.loads(proc.stdout)["runId"]
    trace = json.loads((root / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
    notices = [e for e in trace["events"] if "WITHOUT an OS sandbox" in str(e.get("notice"))]
    assert len(notices) == 1
    tool_msg = next(m for m in server.requests[2]["messages"] if m["role"] == "tool")
    assert '"sandbox": "none"' in tool_msg["content"] or '"sandbox":"none"' in tool_msg["content"]
