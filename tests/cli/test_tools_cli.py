"""`agentls tools` and `agentls tool`: the real command line, run as a subprocess."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agentls.cli import build_parser, subcommands


def agentls(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentls.cli", *args],
        cwd=cwd,
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "hello.txt").write_text("hello\nworld\n")
    return tmp_path


def _result(proc: subprocess.CompletedProcess[str]) -> dict:
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    return json.loads(lines[0])


def test_tools_json_lists_the_agent_tools_shape(ws):
    proc = agentls("tools", "--json", "--mode", "read-only", cwd=ws)
    assert proc.returncode == 0, proc.stderr
    tools = {t["name"]: t for t in _result(proc)["tools"]}
    assert {"read_file", "write_file", "finish"} <= set(tools)
    assert tools["read_file"]["enabled"] is True
    assert tools["write_file"]["enabled"] is False
    assert "filesystemWrite" in tools["write_file"]["disabledReason"]
    for key in ("description", "category", "inputSchema", "outputSchema", "permissions", "version"):
        assert key in tools["read_file"]


def test_tools_text_listing(ws):
    proc = agentls("tools", cwd=ws)
    assert proc.returncode == 0
    assert any(
        line.startswith("read_file ") and "filesystemRead" in line
        for line in proc.stdout.splitlines()
    )


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_tools_text_listing_keeps_its_columns_apart_and_within_the_width(ws, columns, monkeypatch):
    """Each column starts where its heading does, two spaces after the widest cell before it
    (`network, shellExecution` once ran into `Install the project's…`); every line fits the
    terminal, the descriptions wrapped in their own column, a disabled tool's reason too."""
    listed = {t["name"]: t for t in _result(agentls("tools", "--json", cwd=ws))["tools"]}
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = agentls("tools", cwd=ws).stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("TOOL "))
    heading = lines[at]
    category, needs, description = (heading.index(h) for h in ("CATEGORY", "NEEDS", "DESCRIPTION"))
    rows: dict[str, list[str]] = {}
    name = ""
    for line in lines[at + 1 :]:
        assert len(line) <= max(columns, description + 31), line
        if line.startswith(" "):
            assert line[:description].strip() == "" and line[description] != " ", line
            rows[name].append(line[description:])
            continue
        name = line[:category].rstrip()
        for start in (category, needs, description):
            assert line[start - 2 : start] == "  " and line[start] != " ", line
        assert line[category:needs].strip() == listed[name]["category"]
        assert line[needs:description].strip() == (", ".join(listed[name]["permissions"]) or "-")
        rows[name] = [line[description:]]
    assert set(rows) == set(listed)
    text = {name: " ".join(parts) for name, parts in rows.items()}
    assert text["read_file"].startswith("Read a text file")
    assert text["run_command"].endswith("disabled: " + listed["run_command"]["disabledReason"])


def test_tool_prints_the_ok_result(ws):
    proc = agentls(
        "tool",
        "read_file",
        "--input",
        '{"path": "hello.txt", "start_line": 1}',
        "--workspace",
        str(ws),
        cwd=ws.parent,
    )
    assert proc.returncode == 0, proc.stderr
    result = _result(proc)
    assert result["ok"] is True and result["output"]["content"] == "world\n"
    assert (ws / ".agentls" / "audit.jsonl").read_text().count("\n") == 1


@pytest.mark.parametrize(
    ("args", "etype", "fragment"),
    [
        (["tool", "read_file", "--input", "{not json"], "validation", "--input is not valid JSON"),
        (["tool", "read_file", "--input", "[1]"], "validation", "must be a JSON object"),
        (["tool", "read_file", "--input", "{}"], "validation", "'path': Field required"),
        (["tool", "nope"], "validation", "unknown tool 'nope'"),
        (
            ["tool", "read_file", "--input", '{"path": "../x"}'],
            "permission",
            "outside the workspace root",
        ),
        (["tool", "read_file", "--input", '{"path": "missing"}'], "runtime", "file not found"),
        (
            [
                "tool",
                "write_file",
                "--mode",
                "read-only",
                "--input",
                '{"path": "a", "content": "b"}',
            ],
            "permission",
            "filesystemWrite",
        ),
        (
            ["tool", "read_file", "--workspace", "no/such/dir", "--input", '{"path": "a"}'],
            "validation",
            "not a directory",
        ),
    ],
)
def test_tool_errors_are_structured_and_exit_non_zero(ws, args, etype, fragment):
    proc = agentls(*args, cwd=ws)
    assert proc.returncode == 1, proc.stderr
    result = _result(proc)
    assert set(result) == {"ok", "error"} and result["ok"] is False
    assert set(result["error"]) == {"type", "message", "tool"}
    assert result["error"]["type"] == etype
    assert fragment in result["error"]["message"]


def test_input_from_stdin(ws):
    proc = agentls("tool", "finish", "--input", "-", cwd=ws, stdin='{"summary": "done"}')
    assert proc.returncode == 0
    assert _result(proc) == {"ok": True, "output": {"summary": "done"}}


def test_write_without_a_terminal_is_left_pending(ws):
    proc = agentls(
        "tool", "write_file", "--input", '{"path": "hello.txt", "content": "bye\\n"}', cwd=ws
    )
    assert proc.returncode == 0, proc.stderr
    assert _result(proc)["output"]["status"] == "pending"
    assert "--- a/hello.txt\n+++ b/hello.txt\n" in proc.stderr
    assert "left pending" in proc.stderr
    assert (ws / "hello.txt").read_text() == "hello\nworld\n"


@pytest.mark.parametrize(
    ("mode", "status", "written"), [("dev", "applied", True), ("full", "applied", True)]
)
def test_approve_auto_applies_in_write_modes(ws, mode, status, written):
    proc = agentls(
        "tool",
        "edit_file",
        "--mode",
        mode,
        "--approve",
        "auto",
        "--input",
        '{"path": "hello.txt", "old": "world", "new": "there"}',
        cwd=ws,
    )
    assert proc.returncode == 0, proc.stderr
    assert _result(proc)["output"]["status"] == status
    assert "-world\n+there\n" in proc.stderr
    assert ((ws / "hello.txt").read_text() == "hello\nthere\n") is written


def _run_on_a_terminal(ws: Path, answers: list[str]) -> tuple[int, str, str]:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentls.cli",
            "tool",
            "write_file",
            "--input",
            '{"path": "hello.txt", "content": "bye\\n"}',
        ],
        cwd=ws,
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(slave)
    try:
        for answer in answers:
            time.sleep(0.2)
            os.write(master, (answer + "\n").encode())
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    return proc.returncode, out, err


@pytest.mark.parametrize(
    ("answers", "status", "content", "comment"),
    [
        (["y"], "applied", "bye\n", None),
        (["n", "keep the greeting"], "rejected", "hello\nworld\n", "keep the greeting"),
    ],
)
def test_ask_on_a_terminal(ws, answers, status, content, comment):
    code, out, err = _run_on_a_terminal(ws, answers)
    assert code == 0, err
    output = json.loads(out)["output"]
    assert output["status"] == status and output["comment"] == comment
    assert "Apply this change? [y/N]" in err
    assert (ws / "hello.txt").read_text() == content


def test_subcommands_register_themselves():
    names = [c.name for c in subcommands()]
    assert {"tools", "tool"} <= set(names) and len(names) == len(set(names))
    args = build_parser().parse_args(["tool", "finish", "--approve", "never"])
    assert args.run is not None and args.mode is None and args.approve == "never"  # mode: settings


@pytest.mark.parametrize("shell_sandbox", ["bubblewrap", "landlock"])
def test_the_issue_12_commands_are_confined_from_the_command_line(
    shell_sandbox: str, ws: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`agentls tool run_command --mode ci`: a write and a read outside the workspace fail,
    the result names the sandbox, and `agentls tools` says which one is used."""
    from agentls.tools.sandbox import backend_status

    usable, why = backend_status(shell_sandbox)
    if not usable:
        pytest.skip(f"{shell_sandbox} unusable here: {why}")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.txt").write_text("TOP-SECRET")
    settings = json.dumps({"shellSandbox": shell_sandbox})
    command = json.dumps({"command": f"touch {outside}/pwned; cat {outside}/secret.txt"})
    proc = agentls(
        "tool", "run_command", "--mode", "ci", "--input", command, "--settings", settings, cwd=ws
    )
    out = _result(proc)["output"]
    assert (out["sandbox"], out["exit_code"] != 0) == (shell_sandbox, True)
    assert "TOP-SECRET" not in out["stdout"] and sorted(p.name for p in outside.iterdir()) == [
        "secret.txt"
    ]
    listing = json.loads(agentls("tools", "--json", "--settings", settings, cwd=ws).stdout)
    assert listing["sandbox"].startswith(f"{shell_sandbox} (chosen;")
    none = json.loads(
        agentls("tools", "--json", "--settings", '{"shellSandbox": "none"}', cwd=ws).stdout
    )
    assert none["sandbox"].startswith("none: NO OS sandbox")


# --- the mcpServers setting (DESIGN §10) ---------------------------------------------------
PYSERVER = Path(__file__).resolve().parents[1] / "tools" / "mcp" / "pyserver.py"


def _mcp_settings() -> str:
    from tests.clients import bin

    everything = {"command": str(bin("mcp-server-everything")), "args": ["stdio"]}
    return json.dumps({"mcpServers": {
        "everything": everything,
        "py": {"command": sys.executable, "args": [str(PYSERVER)]},
        "broken": {"command": "/nonexistent/mcp-server"},
    }})  # fmt: skip


def test_tools_lists_the_mcp_servers_tools_and_a_broken_one_disabled(ws):
    proc = agentls("tools", "--json", "--mode", "full", "--settings", _mcp_settings(), cwd=ws)
    assert proc.returncode == 0, proc.stderr
    tools = {t["name"]: t for t in _result(proc)["tools"]}
    echo = tools["mcp__everything__echo"]
    assert (echo["category"], echo["enabled"], echo["description"]) == ("mcp", True, "Echoes back the input string")
    assert echo["inputSchema"]["properties"]["message"] == {"type": "string", "description": "Message to echo"}
    assert tools["mcp__py__add"]["enabled"] is True
    assert tools["mcp__broken"]["enabled"] is False
    assert "'/nonexistent/mcp-server' was not found" in tools["mcp__broken"]["disabledReason"]
    assert tools["read_file"]["enabled"] is True


def test_tool_calls_an_mcp_tool_and_stops_its_server_before_exiting(ws):
    from tests.tools.mcp.mcp_servers import gone

    settings = _mcp_settings()
    echo = agentls("tool", "mcp__everything__echo", "--mode", "full", "--input", '{"message": "hi"}', "--settings", settings, cwd=ws)
    assert (echo.returncode, _result(echo)) == (0, {"ok": True, "output": {"content": "Echo: hi", "structured_content": None, "truncated": False}})
    pid = agentls("tool", "mcp__py__pid", "--mode", "full", "--settings", settings, cwd=ws)
    assert pid.returncode == 0, pid.stderr
    assert gone([int(_result(pid)["output"]["content"])], within=2)
    refused = agentls("tool", "mcp__py__pid", "--mode", "dev", "--settings", settings, cwd=ws)
    assert refused.returncode == 1 and _result(refused)["error"]["type"] == "permission"
