"""Auto-approve rules over ACP (DESIGN §9), through the official TypeScript SDK's client: a
shell command matching `autoApprove.commands` runs without `session/request_permission`
and its file changes (a proposal from that command) are applied unasked, the step saying
which rule; a command the pattern's wildcard cannot cover (a second command after `;`)
and a command `autoApproveDeny` names are asked about as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.acp.harness import call, drive, plan, updates, workspace

FS = {"fs": {"readTextFile": True, "writeTextFile": True}}


def _run(tmp_path: Path, command: str, settings: dict[str, object]) -> tuple[Path, dict, list]:
    root = workspace(tmp_path)
    script = [plan("Run it"), call("run_command", {"command": command}, 1), call("finish", {"summary": "ran"}, 2), plan()]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": f"Run `{command}`"}],
        permissions=["reject_once"], clientCapabilities=FS,
        flags=("--mode", "full", "--approve", "ask", "--settings", json.dumps(settings)),
    )  # fmt: skip
    return root, out, requests


def test_a_command_matching_a_pattern_runs_and_lands_without_a_permission_request(tmp_path: Path) -> None:
    root, out, requests = _run(tmp_path, "touch ran.txt", {"autoApprove": {"commands": ["touch *"]}})
    asked = [e["request"]["toolCall"]["title"] for e in out["log"] if e["type"] == "permission"]
    assert "Run: touch ran.txt" not in asked  # (the done check's own test run may still be asked about)
    assert (root / "ran.txt").exists()  # the command's change, proposed and approved by the rule
    started = updates(out, "tool_call")[0]
    assert started["kind"] == "execute"
    assert started["content"][0]["content"]["text"] == "Auto-approved by autoApprove.commands 'touch *'"
    said = [c["content"]["text"] for u in updates(out, "tool_call_update") for c in u.get("content") or [] if c["type"] == "content"]
    assert any("applied, auto-approved by autoApprove.commands 'touch *'" in t for t in said), said
    told = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool")
    assert "autoApprove.commands 'touch *'" in told and "was not run" not in told
    audit = [json.loads(line) for line in (root / ".agentls" / "audit.jsonl").read_text("utf-8").splitlines()]
    assert [a["permission"]["decision"] for a in audit if a["tool"] == "run_command"] == ["auto-approved"]


@pytest.mark.parametrize(
    ("command", "settings"),
    [
        ("touch ran.txt; touch evil.txt", {"autoApprove": {"commands": ["touch *"]}}),
        ("touch ran.txt", {"autoApprove": {"commands": ["touch *"]}, "autoApproveDeny": {"commands": ["touch ran*"]}}),
        ("touch ran.txt", {"autoApprove": {"commands": ["touch *"]}, "workspaceTrusted": False}),
    ],
    ids=["control-character", "deny-wins", "untrusted"],
)
def test_a_command_the_rules_do_not_cover_is_asked_about(tmp_path: Path, command: str, settings: dict[str, object]) -> None:
    root, out, _ = _run(tmp_path, command, settings)
    asked = [e["request"]["toolCall"]["title"] for e in out["log"] if e["type"] == "permission"]
    assert asked[0] == f"Run: {command}"
    assert not (root / "ran.txt").exists()
    assert "content" not in updates(out, "tool_call")[0] or not updates(out, "tool_call")[0]["content"]
