"""The terminal review of `agentls run` as a subprocess on a pseudo-terminal: `e` opens the
proposed text in $EDITOR (a small script that rewrites it) and the user's version lands,
the model being told how it differs; with no $EDITOR/$VISUAL the review says so and asks
again; a proposal an auto-approve rule covers goes ahead without a question (nobody
answers), and a deny rule puts the question back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.cli.test_run_cli import CLI, _call, _read_until, _workspace

EDITOR = '''import pathlib, sys
path = pathlib.Path(sys.argv[2])  # $EDITOR is "python editor.py RECORD", then the file
pathlib.Path(sys.argv[1]).write_text(str(path))
path.write_text(path.read_text().replace("return 2", "# the user's version\\n    return 20"))
'''
USERS = "def main():\n    # the user's version\n    return 20\n"


def _script(tmp_path: Path, turns: list[dict[str, Any]]) -> Path:
    script = tmp_path / "script.jsonl"
    script.write_text("".join(json.dumps({"response": t}) + "\n" for t in turns), "utf-8")
    return script


EDIT = [
    {"content": '["Make main return 2"]'},
    _call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
    _call("finish", {"summary": "main returns the user's number"}, 2),
    {"content": "[]"},
]


def _start(root: Path, tmp_path: Path, env: dict[str, str], *extra: str) -> tuple[subprocess.Popen[bytes], int, Path]:
    record = tmp_path / "record.jsonl"
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [*CLI, "Make main return 2", "--workspace", str(root), "--model", f"replay:{_script(tmp_path, EDIT)}",
         "--record", str(record), "--approve", "ask", "--json", *extra],
        stdin=slave, stderr=slave, stdout=subprocess.PIPE, close_fds=True, env=env,
    )  # fmt: skip
    os.close(slave)
    return proc, master, record


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("EDITOR", "VISUAL")}
    return {**env, **values}


def test_e_opens_the_proposed_text_in_the_editor_and_the_users_version_lands(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    editor = tmp_path / "editor.py"
    editor.write_text(EDITOR, "utf-8")
    opened = tmp_path / "opened.txt"
    proc, master, record = _start(root, tmp_path, _env(EDITOR=f"{sys.executable} {editor} {opened}"))
    try:
        _read_until(master, b"Apply this change? [y/N] (e: edit first)")
        os.write(master, b"e\n")
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
        proc.kill()  # (a no-op once it exited; a failed test leaves no process behind)
    result = json.loads(out)
    assert (root / "app.py").read_text("utf-8") == USERS
    copy = Path(opened.read_text("utf-8"))
    assert copy.name == "app.py" and root not in copy.parents and not copy.exists()  # outside, removed
    recorded = [json.loads(line) for line in record.read_text("utf-8").splitlines()]
    told = json.dumps(recorded[2]["request"])
    assert "Applied with the user's changes" in told and "proposed/app.py" in told
    assert "+    return 20" in told and "-    return 2" in told
    assert result["status"] == "completed", result


def test_without_an_editor_the_review_says_so_and_asks_again(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    proc, master, _ = _start(root, tmp_path, _env())
    try:
        _read_until(master, b"Apply this change?")
        os.write(master, b"e\n")
        said = _read_until(master, b"no $VISUAL or $EDITOR is set")
        if b"Apply this change?" not in said.split(b"no $VISUAL")[-1]:
            _read_until(master, b"Apply this change?")  # asked again
        os.write(master, b"y\n")
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
        proc.kill()  # (a no-op once it exited; a failed test leaves no process behind)
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"
    assert json.loads(out)["status"] == "completed"


def test_a_proposal_a_rule_covers_goes_ahead_without_a_question_and_deny_wins(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    settings = json.dumps({"autoApprove": {"paths": ["*.py"]}})
    proc, master, _ = _start(root, tmp_path, _env(), "--settings", settings)
    try:
        seen = _read_until(master, b"auto-approved by autoApprove.paths ['*.py']")
        out, _ = proc.communicate(timeout=60)  # nobody answers anything
    finally:
        os.close(master)
        proc.kill()  # (a no-op once it exited; a failed test leaves no process behind)
    assert b"Apply this change?" not in seen
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 2\n"
    result = json.loads(out)
    assert result["status"] == "completed"
    trace = json.loads((root / ".agentls" / "runs" / f"{result['runId']}.json").read_text("utf-8"))
    assert trace["proposals"][0]["autoApproved"] == "autoApprove.paths ['*.py']"
    (root / "app.py").write_text("def main():\n    return 1\n", "utf-8")
    denied = json.dumps({"autoApprove": {"paths": ["*.py"]}, "autoApproveDeny": {"paths": ["app.py"]}})
    proc, master, _ = _start(root, tmp_path, _env(), "--settings", denied)
    try:
        _read_until(master, b"Apply this change?")  # asked after all
        os.write(master, b"n\n")
        _read_until(master, b"Why not?")
        os.write(master, b"\n")
        proc.communicate(timeout=60)
    finally:
        os.close(master)
        proc.kill()  # (a no-op once it exited; a failed test leaves no process behind)
    assert (root / "app.py").read_text("utf-8") == "def main():\n    return 1\n"
