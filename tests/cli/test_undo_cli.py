"""`agentls undo` and the terminal's per-hunk review, end to end as subprocesses with
recorded model transcripts: an approve-auto run over several files undone (a file the user
changed in between skipped, the user's text intact), `--approve never` only showing the
undo, an unknown run refused, and `agentls run --approve ask` on a terminal accepting one
hunk of two, the model hearing what was left out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.cli.test_run_cli import _read_until

AGENTLS = [sys.executable, "-m", "agentls.cli"]
APP = "def main():\n    return 1\n"
UTIL = "def helper(x):\n    return x * 2\n"
LONG = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(12))


def _call(name: str, arguments: dict[str, Any], n: int) -> dict[str, Any]:
    return {"response": {"tool_calls": [{"id": f"call_{n}", "name": name, "arguments": arguments}]}}


def _script(tmp_path: Path, turns: list[dict[str, Any]]) -> Path:
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns), "utf-8")
    return path


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "app.py").write_text(APP, "utf-8")
    (root / "src" / "util.py").write_text(UTIL, "utf-8")
    return root


def _auto_run(tmp_path: Path, root: Path) -> str:
    script = _script(tmp_path, [
        {"response": {"content": '["Edit three files"]'}},
        _call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
        _call("edit_file", {"path": "src/util.py", "old": "x * 2", "new": "x * 3"}, 2),
        _call("write_file", {"path": "new.py", "content": "NEW = 1\n"}, 3),
        _call("finish", {"summary": "edited"}, 4),
        {"response": {"content": "[]"}},
    ])  # fmt: skip
    proc = subprocess.run(
        [*AGENTLS, "run", "Edit things", "--workspace", str(root), "--model", f"replay:{script}",
         "--approve", "auto", "--json"],  # fmt: skip
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    run_id = str(json.loads(proc.stdout)["runId"])
    assert f"agentls undo {run_id}" in proc.stderr
    assert (root / "new.py").exists() and "return 2" in (root / "app.py").read_text("utf-8")
    return run_id


def _undo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AGENTLS, "undo", *args, "--workspace", str(root)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )


def test_undo_of_an_auto_run_skips_the_file_the_user_changed(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    run_id = _auto_run(tmp_path, root)
    trace = json.loads((root / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
    assert trace["status"] == "completed" and trace["approval"] == "auto"
    assert [p["status"] for p in trace["proposals"]] == ["applied"] * 3
    users = "def helper(x):\n    return x * 3  # mine\n"
    (root / "src" / "util.py").write_text(users, "utf-8")
    proc = _undo(root, run_id, "--approve", "auto")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["files"], result["status"]) == (["app.py", "new.py"], "applied")
    assert [s["path"] for s in result["skipped"]] == ["src/util.py"]
    assert "skipped src/util.py: it changed since run" in proc.stderr
    assert (root / "app.py").read_text("utf-8") == APP and not (root / "new.py").exists()
    assert (root / "src" / "util.py").read_text("utf-8") == users
    again = json.loads(_undo(root, run_id, "--approve", "auto").stdout)
    assert again["status"] == "nothing" and again["proposalId"] is None


def test_undo_with_approve_never_only_shows_the_diff(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    run_id = _auto_run(tmp_path, root)
    proc = _undo(root, run_id, "--approve", "never")
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "pending"
    assert "-    return 2" in proc.stderr and "+++ /dev/null" in proc.stderr
    assert "return 2" in (root / "app.py").read_text("utf-8") and (root / "new.py").exists()


def test_undo_of_an_unknown_run_is_a_clear_error(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    proc = _undo(root, "run-doesnotexist", "--approve", "auto")
    assert proc.returncode == 2 and "unknown run 'run-doesnotexist'" in proc.stderr
    assert proc.stdout == ""
    proc = _undo(root, "../../etc/passwd")
    assert proc.returncode == 2 and "is not a run id" in proc.stderr


def test_the_terminal_review_accepts_one_hunk_of_two_and_the_model_hears_the_rest(
    tmp_path: Path,
) -> None:
    root = _workspace(tmp_path)
    (root / "long.py").write_text(LONG, "utf-8")
    new = LONG.replace("return 1\n", "return 100\n").replace("return 10\n", "return 1000\n")
    script = _script(tmp_path, [
        {"response": {"content": '["Change f1 and f10"]'}},
        _call("write_file", {"path": "long.py", "content": new}, 1),
        _call("finish", {"summary": "changed f1"}, 2),
        {"response": {"content": "[]"}},
    ])  # fmt: skip
    record = tmp_path / "record.jsonl"
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [*AGENTLS, "run", "Change f1 and f10", "--workspace", str(root), "--model", f"replay:{script}",
         "--record", str(record), "--json"],  # fmt: skip
        stdin=slave, stderr=slave, stdout=subprocess.PIPE, close_fds=True,
    )
    os.close(slave)
    try:
        _read_until(master, b"Apply this change? [y/N] (e: edit first; h: hunk by hunk)")
        os.write(master, b"h\n")
        _read_until(master, b"Apply this hunk (1/2)?")
        os.write(master, b"y\n")
        _read_until(master, b"Apply this hunk (2/2)?")
        os.write(master, b"n\n")
        _read_until(master, b"Why leave the other hunks out?")
        os.write(master, b"f10 stays\n")
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
    result = json.loads(out)
    assert (root / "long.py").read_text("utf-8") == LONG.replace("return 1\n", "return 100\n")
    recorded = [json.loads(line) for line in record.read_text("utf-8").splitlines()]
    after_edit = json.dumps(recorded[2]["request"])
    assert "Applied in part" in after_edit and "left out hunk 1 of long.py" in after_edit
    assert "return 1000" in after_edit and "f10 stays" in after_edit
    trace = json.loads((root / ".agentls" / "runs" / f"{result['runId']}.json").read_text("utf-8"))
    assert trace["proposals"][0]["acceptedHunks"] == [0] and trace["recording"] == str(record)
