"""`agentls acp` driven by the official ACP TypeScript SDK's client: the handshake, modes,
an edit allowed (applied) or rejected (the model is told), allow-always."""

from __future__ import annotations

from pathlib import Path

from tests.acp.harness import call, drive, one_edit, plan, responses, updates, workspace


def test_an_allowed_edit_is_applied_through_the_client(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("main now returns 2")
    caps = {"fs": {"readTextFile": True, "writeTextFile": True}}
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Make main in app.py return 2"}],
        permissions=["allow_once"], clientCapabilities=caps,
    )  # fmt: skip
    init = responses(out, "initialize")[0]["result"]
    assert init["protocolVersion"] == 1 and init["agentCapabilities"]["loadSession"] is True
    new = responses(out, "new")[0]["result"]
    assert new["sessionId"].startswith("ses-") and new["modes"]["currentModeId"] == "dev"
    assert {m["id"] for m in new["modes"]["availableModes"]} == {"read-only", "dev", "ci", "full"}
    assert responses(out, "prompt")[0]["result"]["stopReason"] == "end_turn"
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"
    writes = [e for e in out["log"] if e["type"] == "write"]
    assert [w["path"] for w in writes] == [str(root / "app.py")]  # through the client
    asked = [e for e in out["log"] if e["type"] == "permission"]
    assert len(asked) == 1
    diff = asked[0]["request"]["toolCall"]["content"][0]
    assert diff == {"type": "diff", "path": str(root / "app.py"), "oldText": "def main():\n    return 1\n",
                    "newText": "def main():\n    return 2\n"}  # fmt: skip
    assert [o["optionId"] for o in asked[0]["request"]["options"]] == ["allow_once", "allow_always", "reject_once", "reject_always"]
    started = updates(out, "tool_call")
    assert [(u["toolCallId"], u["kind"], u["status"]) for u in started] == [("call_1", "edit", "in_progress")]
    assert started[0]["locations"] == [{"path": str(root / "app.py")}]
    ended = [u for u in updates(out, "tool_call_update") if u.get("status")]
    assert ended[-1]["toolCallId"] == "call_1" and ended[-1]["status"] == "completed"
    last = updates(out, "agent_message_chunk")[-1]["content"]["text"]
    assert "main now returns 2" in last
    plans = updates(out, "plan")
    assert plans and plans[-1]["entries"][0]["status"] == "completed" and plans[-1]["entries"][0]["priority"] == "medium"
    assert any(r.get("tools") for r in requests)


def _two_edits() -> list[dict[str, object]]:
    return [
        plan("Change main"),
        call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
        call("edit_file", {"path": "app.py", "old": "def main", "new": "def start"}, 2),
        call("finish", {"summary": "done"}, 3),
        plan(),
    ]


def test_a_rejected_edit_is_not_applied_and_the_model_is_told(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("the user rejected the change")
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Make main in app.py return 2"}],
        permissions=["reject_once"], clientCapabilities={"fs": {"readTextFile": True, "writeTextFile": True}},
    )  # fmt: skip
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"
    assert not [e for e in out["log"] if e["type"] == "write"]
    told = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool" and "rejected" in m["content"])
    assert "rejected by the user in the editor" in told
    failed = [u for u in updates(out, "tool_call_update") if u.get("status") == "failed"]
    assert failed and failed[0]["toolCallId"] == "call_1"
    assert "rejected" in failed[0]["content"][0]["content"]["text"]


def test_allow_always_holds_for_the_tool_for_the_rest_of_the_session(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    out, _ = drive(
        tmp_path, _two_edits(),
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Rename main in app.py to start and make it return 2"}],
        permissions=["allow_always"], clientCapabilities={"fs": {"readTextFile": True, "writeTextFile": True}},
    )  # fmt: skip
    assert len([e for e in out["log"] if e["type"] == "permission"]) == 1  # the second edit was not asked
    assert (root / "app.py").read_text("utf-8") == "def start():\n    return 2\n"


def test_reject_always_refuses_the_next_edit_without_asking(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    out, requests = drive(
        tmp_path, _two_edits(),
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Rename main in app.py to start and make it return 2"}],
        permissions=["reject_always"], clientCapabilities={"fs": {"readTextFile": True, "writeTextFile": True}},
    )  # fmt: skip
    assert len([e for e in out["log"] if e["type"] == "permission"]) == 1
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"
    told = [m["content"] for r in requests for m in r["messages"] if m["role"] == "tool" and "standing rule" in m["content"]]
    assert told  # the second rejection says why nobody was asked


def test_without_fs_capabilities_edits_go_to_disk_and_no_fs_method_is_called(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    script = one_edit("main now returns 2")
    out, _ = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "Make main in app.py return 2"}],
        permissions=["allow_once"], clientCapabilities=None,  # no clientCapabilities at all: none
    )  # fmt: skip
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"
    assert not [e for e in out["log"] if e["type"] in ("read", "write")]


def test_reads_see_the_editors_unsaved_text(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    unsaved = "def main():\n    return 41  # unsaved\n"
    script = [
        plan("Read app.py"),
        call("read_file", {"path": "app.py"}, 1),
        call("finish", {"summary": "main returns 41"}, 2),
        plan(),
    ]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "text": "What does main in app.py return?"}],
        clientCapabilities={"fs": {"readTextFile": True, "writeTextFile": False}},
        buffers={str(root / "app.py"): unsaved}, flags=("--mode", "read-only"),
    )  # fmt: skip
    assert [e["path"] for e in out["log"] if e["type"] == "read"] == [str(root / "app.py")]
    result = next(m["content"] for r in requests for m in r["messages"] if m["role"] == "tool")
    assert "return 41  # unsaved" in result
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"  # the disk untouched
    kinds = [u["kind"] for u in updates(out, "tool_call")]
    assert kinds == ["read"]
