"""`agentls acp` sessions through the official ACP TypeScript SDK's client: cancel, a
follow-up prompt that sees the first, `session/load` replaying a session after a restart,
modes and the approval option, a shell command asked about before it runs, bad params."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.acp.harness import call, drive, one_edit, plan, responses, updates, workspace

FS = {"fs": {"readTextFile": True, "writeTextFile": True}}



def test_cancel_mid_run_ends_the_prompt_cancelled(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = [
        plan("Read app.py"),
        call("read_file", {"path": "app.py"}, 1),
        {**call("finish", {"summary": "late"}, 2), "delay": 20},  # the model is slow: cancelled meanwhile
        plan(),
    ]
    out, _ = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)},
         {"op": "prompt", "text": "What does main in app.py return?", "cancelOn": "tool_call"}],
        clientCapabilities=FS,
    )  # fmt: skip
    answer = responses(out, "prompt")[0]
    assert answer["result"]["stopReason"] == "cancelled"
    assert answer["ms"] < 15000  # not the model's 20 s


def test_cancel_while_a_permission_is_asked_rejects_the_edit(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("x")
    out, _ = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)},
         {"op": "prompt", "text": "Make main in app.py return 2", "cancelOn": "permission"}],
        permissions=["cancel"], clientCapabilities=FS,
    )  # fmt: skip
    assert responses(out, "prompt")[0]["result"]["stopReason"] == "cancelled"
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"
    assert not [e for e in out["log"] if e["type"] == "write"]


def test_a_follow_up_prompt_sees_the_first_and_load_replays_the_session(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = [
        plan("Read app.py"),
        call("read_file", {"path": "app.py"}, 1),
        call("finish", {"summary": "main returns 1"}, 2),
        plan(),
        plan("Answer"),
        call("finish", {"summary": "It returned 1, as said before"}, 3),
        plan(),
    ]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)},
         {"op": "prompt", "text": "What does main in app.py return?"},
         {"op": "prompt", "text": "And what did you say it returns?"}],
        clientCapabilities=FS, flags=("--mode", "read-only"),
    )  # fmt: skip
    assert [r["result"]["stopReason"] for r in responses(out, "prompt")] == ["end_turn", "end_turn"]
    second = [r for r in requests if any("And what did you say" in str(m.get("content")) for m in r["messages"])]
    seen = json.dumps(second[0]["messages"])
    assert "What does main in app.py return?" in seen and "main returns 1" in seen  # the first run
    session_id = out["sessionId"]
    saved = json.loads((root / ".agentls" / "sessions" / f"{session_id}.json").read_text("utf-8"))
    assert [r["goal"] for r in saved["runs"]] == ["What does main in app.py return?", "And what did you say it returns?"]

    # a new agentls process (a restart) loads the session: its history comes back as updates
    again, _ = drive(
        tmp_path, [],
        [{"op": "initialize"}, {"op": "load", "cwd": str(root), "sessionId": session_id},
         {"op": "list", "cwd": str(root)}],
        clientCapabilities=FS,
    )  # fmt: skip
    loaded = responses(again, "load")[0]
    assert "error" not in loaded and loaded["result"]["modes"]["currentModeId"] == "dev"
    users = [u["content"]["text"] for u in updates(again, "user_message_chunk")]
    agents = [u["content"]["text"] for u in updates(again, "agent_message_chunk")]
    assert users == ["What does main in app.py return?", "And what did you say it returns?"]
    assert "main returns 1" in agents[0] and "as said before" in agents[1]
    listed = responses(again, "list")[0]["result"]["sessions"]
    assert [s["sessionId"] for s in listed] == [session_id] and listed[0]["cwd"] == str(root)


def test_unknown_sessions_and_bad_params_are_invalid_params(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    out, _ = drive(
        tmp_path, [],
        [{"op": "initialize"},
         {"op": "load", "cwd": str(root), "sessionId": "ses-0000000000000000"},
         {"op": "load", "cwd": str(root), "sessionId": "../../etc/passwd"},
         {"op": "raw", "method": "session/prompt", "params": {"sessionId": "nope", "prompt": [{"type": "text", "text": "hi"}]}},
         {"op": "raw", "method": "session/new", "params": {"cwd": "relative/path", "mcpServers": []}},
         {"op": "raw", "method": "session/prompt", "params": {"prompt": "not a list"}},
         {"op": "new", "cwd": str(root)},
         {"op": "setMode", "modeId": "root"},
         {"op": "setConfig", "configId": "approval", "value": "sometimes"}],
    )  # fmt: skip
    codes = [e["error"]["code"] for e in out["log"] if e["type"] == "response" and "error" in e]
    assert codes == [-32602] * 7
    assert "result" in responses(out, "new")[0]  # the agent lived on


def test_modes_and_the_approval_option(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("main now returns 2")
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)},
         {"op": "setConfig", "configId": "approval", "value": "auto"},
         {"op": "setMode", "modeId": "read-only"}, {"op": "setMode", "modeId": "dev"},
         {"op": "prompt", "text": "Make main in app.py return 2"}],
        clientCapabilities=FS,
    )  # fmt: skip
    new = responses(out, "new")[0]["result"]
    option = new["configOptions"][0]
    assert option["id"] == "approval" and option["currentValue"] == "ask"
    assert {o["value"] for o in option["options"]} == {"ask", "auto", "never", "plan"}
    assert responses(out, "setConfig")[0]["result"]["configOptions"][0]["currentValue"] == "auto"
    assert not [e for e in out["log"] if e["type"] == "permission"]  # auto: nobody asked
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"


def test_read_only_mode_offers_no_write_tool(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = [plan("Answer"), call("finish", {"summary": "nothing to do"}, 1), plan()]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "setMode", "modeId": "read-only"},
         {"op": "prompt", "text": "What does main in app.py return?"}],
    )  # fmt: skip
    offered = {t["function"]["name"] for r in requests if r.get("tools") for t in r["tools"]}
    assert "read_file" in offered and not offered & {"edit_file", "write_file"}


def test_a_shell_command_under_ask_is_asked_about_before_it_runs(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = [
        plan("Run it"),
        call("run_command", {"command": "touch ran.txt"}, 1),
        call("finish", {"summary": "the user said no"}, 2),
        plan(),
    ]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Run `touch ran.txt`"}],
        permissions=["reject_once"], clientCapabilities=FS, flags=("--mode", "full", "--approve", "ask"),
    )  # fmt: skip
    asked = [e for e in out["log"] if e["type"] == "permission"]
    assert len(asked) == 1 and asked[0]["request"]["toolCall"]["kind"] == "execute"
    assert asked[0]["request"]["toolCall"]["title"] == "Run: touch ran.txt"
    assert not (root / "ran.txt").exists()
    told = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool")
    assert "was not run" in told and "rejected by the user" in told
    started = updates(out, "tool_call")
    assert started[0]["kind"] == "execute"


def test_a_spent_budget_is_max_turn_requests_and_a_failed_run_says_failed(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    spent = [
        plan("Read app.py"),
        call("read_file", {"path": "app.py"}, 1),
        call("read_file", {"path": "app.py"}, 2),  # the one step allowed is spent
    ]
    out, _ = drive(
        tmp_path, spent,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "What does main in app.py return?"}],
        flags=("--mode", "read-only", "--settings", '{"maxSteps": 1}'),
    )  # fmt: skip
    assert [r["result"]["stopReason"] for r in responses(out, "prompt")] == ["max_turn_requests"]
    used = updates(out, "usage_update")
    assert used and all(u["size"] > 0 and 0 <= u["used"] <= u["size"] for u in used)

    bad = {"content": "no tool call here", "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    failing = [plan("Read app.py"), *[bad] * 9]  # three bad replies in a row fail a run
    out, _ = drive(
        tmp_path, failing,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Read app.py"}],
        flags=("--mode", "read-only"),
    )  # fmt: skip
    assert [r["result"]["stopReason"] for r in responses(out, "prompt")] == ["end_turn"]
    assert updates(out, "agent_message_chunk")[-1]["content"]["text"].startswith("Failed: ")


def test_the_sessions_mcp_servers_are_its_tools(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    server = Path(__file__).resolve().parents[1] / "tools" / "mcp" / "pyserver.py"
    script = [
        plan("Add"),
        call("mcp__calc__add", {"a": 2, "b": 3}, 1),
        call("finish", {"summary": "2 + 3 is 5"}, 2),
        plan(),
    ]
    stdio = {"name": "calc", "command": sys.executable, "args": [str(server)],
             "env": [{"name": "PYTHONPATH", "value": os.pathsep.join(sys.path)}]}  # fmt: skip
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root), "mcpServers": [stdio]},
         {"op": "prompt", "text": "Use the calc MCP server to add 2 and 3"}],
        flags=("--mode", "full", "--approve", "auto"),
    )  # fmt: skip
    offered = {t["function"]["name"] for r in requests if r.get("tools") for t in r["tools"]}
    assert "mcp__calc__add" in offered
    result = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool")
    assert '"ok": true' in result and "5" in result
    started = updates(out, "tool_call")
    assert [(u["toolCallId"], u["kind"]) for u in started] == [("call_1", "other")]


def test_an_mcp_tool_under_ask_is_asked_about_and_a_refusal_calls_nothing(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    server = Path(__file__).resolve().parents[1] / "tools" / "mcp" / "pyserver.py"
    calls = tmp_path / "calls.log"
    script = [
        plan("Add"),
        call("mcp__calc__add", {"a": 2, "b": 3}, 1),
        call("finish", {"summary": "refused"}, 2),
        plan(),
    ]
    stdio = {"name": "calc", "command": sys.executable, "args": [str(server)],
             "env": [{"name": "PYTHONPATH", "value": os.pathsep.join(sys.path)},
                     {"name": "CALL_LOG", "value": str(calls)}]}  # fmt: skip
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root), "mcpServers": [stdio]},
         {"op": "prompt", "text": "Use the calc MCP server to add 2 and 3"}],
        permissions=["reject_once"], flags=("--mode", "full", "--approve", "ask"),
    )  # fmt: skip
    asked = [e for e in out["log"] if e["type"] == "permission"]
    assert len(asked) == 1 and asked[0]["request"]["toolCall"]["title"].startswith("mcp__calc__add(")
    assert not calls.exists()  # the server was never called
    told = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool")
    assert "was not run" in told
