"""The audit log: one redacted JSON line per call, thread-safe, never raising."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from agentls.tools.audit import AuditLog, redact
from agentls.tools.executor import ToolExecutor
from agentls.tools.filesystem import TOOLS
from agentls.tools.registry import ToolRegistry


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_call_writes_one_line_with_secrets_redacted(make_ctx, ws_root, monkeypatch):
    monkeypatch.setenv("MY_API_KEY", "sekrit123")
    monkeypatch.setenv("UNRELATED_SETTING", "harmless-value")
    audit = AuditLog.for_workspace(ws_root)
    executor = ToolExecutor(ToolRegistry(TOOLS), audit)
    ctx = make_ctx("read-only", run_id="run-7")
    executor.execute("read_file", {"path": "README.md"}, ctx)
    executor.execute("search_files", {"query": "token sekrit123 here"}, ctx)
    executor.execute("write_file", {"path": "x.txt", "content": "pw=sekrit123"}, ctx)
    executor.execute(
        "read_file", {"path": "README.md", "api_token": "abc", "password": "hunter2"}, ctx
    )

    log_file = ws_root / ".agentls" / "audit.jsonl"
    raw = log_file.read_text()
    assert "sekrit123" not in raw and "hunter2" not in raw
    first, search, write, bad = _lines(log_file)

    assert first["tool"] == "read_file" and first["ok"] is True and first["error"] is None
    assert first["run_id"] == "run-7"
    assert first["input"] == {"path": "README.md"}
    assert first["output_bytes"] > len("hello world")
    assert first["duration_ms"] > 0
    assert first["permission"] == {"decision": "allowed", "missing": [], "mode": "read-only"}
    assert "T" in first["timestamp"]

    assert search["input"]["query"] == "token *** here"

    assert write["permission"]["decision"] == "denied"
    assert write["permission"]["missing"] == ["filesystemWrite"]
    assert write["error"]["type"] == "permission"
    assert write["input"]["content"] == "pw=***"
    assert write["output_bytes"] == 0

    assert bad["input"]["api_token"] == "***" and bad["input"]["password"] == "***"
    assert bad["permission"]["decision"] == "not_checked"
    assert bad["error"]["type"] == "validation"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            {"Secret": "x", "nested": {"authKey": 1}},
            {"Secret": "***", "nested": {"authKey": "***"}},
        ),
        ({"items": ["a sekrit123 b", 3, None]}, {"items": ["a *** b", 3, None]}),
        ({"path": "src/a.py", "ok": True}, {"path": "src/a.py", "ok": True}),
        ({"content": "x" * 5000}, {"content": "x" * 2000 + "... (5000 characters)"}),
    ],
)
def test_redact(value, expected):
    assert redact(value, ["sekrit123"]) == expected


def test_a_failing_write_is_logged_not_raised(tmp_path: Path, caplog):
    target = tmp_path / "dir-not-file"
    target.mkdir()
    audit = AuditLog(target)
    audit.record(
        tool="t", input={}, duration_ms=1.0, output_bytes=0, error=None, decision="allowed"
    )
    assert "could not write the audit log" in caplog.text


def test_concurrent_records_stay_whole_lines(tmp_path: Path):
    audit = AuditLog(tmp_path / "audit.jsonl")

    def write(n: int) -> None:
        for i in range(50):
            audit.record(
                tool=f"t{n}",
                input={"i": i, "pad": "x" * 500},
                duration_ms=0.1,
                output_bytes=i,
                error=None,
                decision="allowed",
            )

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    records = _lines(tmp_path / "audit.jsonl")
    assert len(records) == 400
    assert {r["tool"] for r in records} == {f"t{n}" for n in range(8)}
