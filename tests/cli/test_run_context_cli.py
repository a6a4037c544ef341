"""`agentls run` with the project's rules and @-mentions, as a subprocess against a fake
OpenAI-compatible server: what the first request holds, what stderr says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.llm.fake_openai import FakeOpenAIServer

CLI = [sys.executable, "-m", "agentls.cli", "run"]
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _finish(summary: str) -> dict[str, object]:
    call = {"id": "call_1", "name": "finish", "arguments": json.dumps({"summary": summary})}
    return {"tool_calls": [call], "usage": USAGE}


def _run(root: Path, goal: str, *extra: str) -> tuple[subprocess.CompletedProcess[str], list[dict[str, object]]]:
    with FakeOpenAIServer([{"content": "[]"}, _finish("main returns 1"), {"content": "[]"}]) as server:
        proc = subprocess.run(
            [*CLI, goal, "--workspace", str(root), "--model", "openai:m", "--base-url", server.base_url,
             "--mode", "read-only", "--json", *extra],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    return proc, server.requests


def test_rules_and_mentions_reach_the_first_request(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n", "utf-8")
    (root / "AGENTS.md").write_text("Answer in one sentence.\n", "utf-8")
    (root / "CONVENTIONS.md").write_text("Name things plainly.\n", "utf-8")
    proc, requests = _run(root, "What does @app.py return? Also see @problems and @nothing/here.py")
    assert proc.returncode == 0, proc.stderr
    first = json.dumps(requests[0]["messages"])
    assert "Answer in one sentence." in first and "Name things plainly." in first
    assert "`app.py` is shown below" in first and "return 1" in first
    assert "• rules: AGENTS.md, CONVENTIONS.md" in proc.stderr
    # no open documents on the command line: @problems says so
    assert "! warning: @problems: no document is open" in proc.stderr
    assert "! warning: @nothing/here.py: no file or folder nothing/here.py" in proc.stderr

    off, requests = _run(root, "What does main return?", "--settings", '{"rules": false}')
    assert off.returncode == 0, off.stderr
    assert "Answer in one sentence." not in json.dumps(requests[0]["messages"]) and "rules:" not in off.stderr
