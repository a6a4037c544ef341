"""`agentls acp` with the official ACP TypeScript SDK's client: a prompt's `resource_link`
to a workspace file is a mention of it (DESIGN §9), read into the first turn through the
client's `fs/read_text_file` (the editor's unsaved text); the workspace's AGENTS.md is in
the instructions."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.harness import call, drive, plan, responses, workspace

FS = {"fs": {"readTextFile": True, "writeTextFile": True}}


def test_a_resource_link_is_a_mention_read_through_the_client(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    (root / "AGENTS.md").write_text("ACP rules: be exact.\n", "utf-8")
    app = root / "app.py"
    unsaved = "def main():\n    return 42  # unsaved in the editor\n"
    prompt = [
        {"type": "text", "text": "What does main return in"},
        {"type": "resource_link", "uri": app.as_uri(), "name": "app.py"},
        {"type": "resource_link", "uri": "https://example.com/elsewhere", "name": "elsewhere"},
    ]
    script = [plan(), call("finish", {"summary": "main returns 42"}, 1), plan()]
    out, requests = drive(
        tmp_path, script,
        [{"op": "initialize"}, {"op": "new", "cwd": str(root)}, {"op": "prompt", "prompt": prompt}],
        clientCapabilities=FS, flags=("--mode", "read-only"), buffers={str(app): unsaved},
    )  # fmt: skip
    assert [r["result"]["stopReason"] for r in responses(out, "prompt")] == ["end_turn"]
    first = json.dumps(requests[0]["messages"])
    assert "@./app.py" in first and "(see `https://example.com/elsewhere`)" in first
    assert "The file `app.py`" in first and "return 42  # unsaved in the editor" in first
    assert "ACP rules: be exact." in first
    assert {"type": "read", "path": str(app)} in out["log"]
