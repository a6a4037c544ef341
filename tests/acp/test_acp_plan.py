"""`agentls acp --approve plan` through the official ACP TypeScript SDK's client (DESIGN §7,
§9): the run's plan goes out as the `plan` update, then `session/request_permission` on a
`switch_mode` tool call ("Run this plan?"); allowed, the run goes on as `ask` (each edit
asked about); rejected, the prompt ends `cancelled` before any tool runs. Usage comes as
`usage_update`."""

from __future__ import annotations

from pathlib import Path

from tests.acp.harness import drive, one_edit, responses, updates, workspace

FS = {"fs": {"readTextFile": True, "writeTextFile": True}}
PLAN = ("--mode", "dev", "--approve", "plan")


def test_an_allowed_plan_runs_as_ask(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("main now returns 2")
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Make main in app.py return 2"}],
        permissions=["allow_once", "allow_once"], clientCapabilities=FS, flags=PLAN,
    )  # fmt: skip
    assert responses(out, "prompt")[0]["result"]["stopReason"] == "end_turn"
    kinds = [e["type"] if e["type"] != "update" else e["update"]["sessionUpdate"] for e in out["log"]]
    first_ask = kinds.index("permission")
    assert "plan" in kinds[:first_ask] and "tool_call" not in kinds[:first_ask]  # the plan first, nothing ran
    asked = [e["request"]["toolCall"] for e in out["log"] if e["type"] == "permission"]
    assert [a["kind"] for a in asked] == ["switch_mode", "edit"]  # the plan, then the edit (as ask)
    assert asked[0]["title"] == "Run this plan?" and "Make main return 2" in str(asked[0]["content"])
    shown = updates(out, "plan")[0]["entries"]
    assert [(e["content"], e["status"]) for e in shown] == [("Make main return 2", "pending")]
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"
    used = updates(out, "usage_update")[-1]
    assert used["size"] == 32_000 and used["used"] == 10  # the window, and the last turn's prompt


def test_a_rejected_plan_ends_the_prompt_before_any_tool(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    out, requests = drive(
        tmp_path, one_edit(),
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Make main in app.py return 2"}],
        permissions=["reject_once"], clientCapabilities=FS, flags=PLAN,
    )  # fmt: skip
    assert responses(out, "prompt")[0]["result"]["stopReason"] == "cancelled"
    assert not updates(out, "tool_call") and len(requests) == 1  # the planning turn only
    assert updates(out, "agent_message_chunk")[-1]["content"]["text"].startswith("Cancelled: the user rejected the plan")
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"
