"""The `run_command` tool: one shell command in the sandbox, its exit code and output.

Must not know: the agent, LSP, how the sandbox confines the process.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolInput, ToolOutput
from agentls.tools.permissions import Permission
from agentls.tools.shell.execution import run_checked, working_dir
from agentls.tools.shell.fields import (
    DEFAULT_TIMEOUT_S,
    MAX_TIMEOUT_S,
    TIMEOUT_MARGIN_S,
    CommandText,
    PathText,
)


class RunCommandInput(ToolInput):
    command: CommandText = Field(description="Shell command, run by /bin/sh -c.")
    cwd: PathText | None = Field(
        default=None, description="Working directory relative to the workspace root."
    )
    timeout_s: float | None = Field(
        default=None,
        gt=0,
        le=MAX_TIMEOUT_S,
        description=f"Seconds before the command is killed (default {DEFAULT_TIMEOUT_S:g}).",
    )


class RunCommandOutput(ToolOutput):
    exit_code: int | None = Field(description="Non-zero means the command failed.")
    stdout: str
    stderr: str
    stdout_truncated: bool = Field(description="The middle of stdout was cut (~200 KB kept).")
    stderr_truncated: bool
    timed_out: bool
    duration_ms: int
    background_stopped: int = Field(
        description="Processes the command left running in the background, stopped at exit."
    )
    sandbox: str = Field(description="bubblewrap, or none (no OS confinement).")


class RunCommand(Tool):
    """Run a shell command (/bin/sh -c) in the workspace and return its exit code and output.

    The command runs with a scrubbed environment (no secrets), no network, and — where
    bubblewrap is available — a read-only system where only the workspace is writable.
    A non-zero exit code is returned, not raised; a timeout kills the whole process tree
    and is an error carrying the output tail. Background processes do not outlive the call.
    """

    name = "run_command"
    category = "shell"
    permissions = frozenset({Permission.SHELL_EXECUTION})
    Input = RunCommandInput
    Output = RunCommandOutput
    timeout_s = MAX_TIMEOUT_S + TIMEOUT_MARGIN_S

    def timeout_for(self, input: RunCommandInput, ctx: ToolContext) -> float:
        return (input.timeout_s or DEFAULT_TIMEOUT_S) + TIMEOUT_MARGIN_S

    def execute(self, input: RunCommandInput, ctx: ToolContext) -> RunCommandOutput:
        cwd = working_dir(ctx, input.cwd, self.name)
        timeout = input.timeout_s or DEFAULT_TIMEOUT_S
        result = run_checked(self.name, input.command, cwd, timeout, ctx)
        return RunCommandOutput(
            exit_code=result.exit_code,
            stdout=result.stdout,
            stderr=result.stderr,
            stdout_truncated=result.stdout_truncated,
            stderr_truncated=result.stderr_truncated,
            timed_out=result.timed_out,
            duration_ms=result.duration_ms,
            background_stopped=result.leftovers_stopped,
            sandbox=result.sandbox,
        )
