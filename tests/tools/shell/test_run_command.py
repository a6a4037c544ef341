"""run_command: exit codes are data, timeouts are errors with the output tail, the
working directory is confined, and the whole thing works through the executor."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.executor import ToolExecutor
from agentls.tools.registry import ToolRegistry
from agentls.tools.shell import TOOLS, RunCommand
from agentls.tools.shell.run_command import RunCommandInput

MakeCtx = Callable[..., ToolContext]


@pytest.mark.parametrize(
    ("command", "exit_code", "stdout", "stderr"),
    [
        ("echo hello", 0, "hello\n", ""),
        ("echo out; echo err >&2; exit 7", 7, "out\n", "err\n"),
        ("pwd", 0, "{ws}\n", ""),
        ("no-such-command-xyz", 127, "", "not found"),
    ],
)
def test_exit_code_and_output(
    command: str, exit_code: int, stdout: str, stderr: str, kind: str, ws: Path, shell_ctx: MakeCtx
) -> None:
    out = RunCommand().execute(RunCommandInput(command=command), shell_ctx(kind))
    assert out.exit_code == exit_code
    assert out.stdout == stdout.format(ws=ws.resolve())
    assert stderr in out.stderr
    assert (out.timed_out, out.sandbox) == (False, kind)


def test_cwd_is_relative_to_the_workspace(ws: Path, shell_ctx: MakeCtx) -> None:
    (ws / "sub").mkdir()
    out = RunCommand().execute(RunCommandInput(command="pwd", cwd="sub"), shell_ctx())
    assert out.stdout.strip() == str(ws.resolve() / "sub")


@pytest.mark.parametrize(
    ("cwd", "error_type"),
    [("..", "permission"), ("/tmp", "permission"), ("missing", "runtime"), ("file.txt", "runtime")],
)
def test_bad_cwd(cwd: str, error_type: str, ws: Path, shell_ctx: MakeCtx) -> None:
    (ws / "file.txt").write_text("x")
    with pytest.raises(ToolError) as err:
        RunCommand().execute(RunCommandInput(command="true", cwd=cwd), shell_ctx())
    assert err.value.type == error_type


def test_timeout_is_a_runtime_error_with_the_output_tail(kind: str, shell_ctx: MakeCtx) -> None:
    command = "echo first-line; echo to-stderr >&2; sleep 30"
    with pytest.raises(ToolError) as err:
        RunCommand().execute(RunCommandInput(command=command, timeout_s=0.5), shell_ctx(kind))
    assert err.value.type == "runtime"
    assert "timed out after 0.5 s" in err.value.message
    assert "first-line" in err.value.message and "to-stderr" in err.value.message


@pytest.mark.parametrize(
    "raw",
    [{"command": ""}, {"command": "   "}, {"command": "ls", "timeout_s": 0},
     {"command": "ls", "timeout_s": 601}, {"command": "ls", "shell": "bash"}, {}],
)  # fmt: skip
def test_malformed_input_is_a_validation_error(raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        RunCommandInput.model_validate(raw)


@pytest.mark.parametrize(("timeout", "deadline"), [(None, 90.0), (5, 35.0), (600, 630.0)])
def test_executor_deadline_leaves_room_for_the_process_timeout(
    timeout: float | None, deadline: float, shell_ctx: MakeCtx
) -> None:
    assert (
        RunCommand().timeout_for(RunCommandInput(command="x", timeout_s=timeout), shell_ctx())
        == deadline
    )


@pytest.mark.parametrize(
    ("mode", "raw", "ok", "error_type"),
    [
        ("full", {"command": "echo hi; exit 3"}, True, None),  # non-zero exit: still ok
        ("ci", {"command": "echo hi"}, True, None),
        ("dev", {"command": "echo hi"}, False, "permission"),
        ("read-only", {"command": "echo hi"}, False, "permission"),
        ("full", {"command": "sleep 5", "timeout_s": 0.3}, False, "runtime"),
        ("full", {"command": "echo", "cwd": "../.."}, False, "permission"),
        ("full", {"command": "a\x00b"}, False, "validation"),
    ],
)
def test_through_the_executor(
    mode: str, raw: dict[str, Any], ok: bool, error_type: str | None, shell_ctx: MakeCtx
) -> None:
    result = ToolExecutor(ToolRegistry(TOOLS)).execute("run_command", raw, shell_ctx(mode=mode))
    payload = result.to_dict()
    assert payload["ok"] is ok, payload
    if ok:
        assert payload["output"]["stdout"] == "hi\n"
    else:
        assert payload["error"]["type"] == error_type
