"""The `run_command` tool: one shell command in the sandbox, its exit code and output,
and — unless approval is `auto` — its file changes as one proposal (shell/edits.py).

Must not know: the agent, LSP, how the sandbox confines the process.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import ToolContext, ToolInput, ToolOutput
from agentls.tools.filesystem.proposing import call_timeout
from agentls.tools.shell.edits import ShellEdits, edits_in_place, in_place_edits, propose_edits
from agentls.tools.shell.execution import ShellTool, run_checked, working_dir
from agentls.tools.shell.fields import (
    DEFAULT_TIMEOUT_S,
    MAX_TIMEOUT_S,
    TIMEOUT_MARGIN_S,
    CommandText,
    PathText,
)
from agentls.tools.shell.pending import pending_overlay


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
    sandbox: str = Field(description="bubblewrap, landlock, or none (no OS confinement).")
    edits: ShellEdits = Field(description="What became of the files the command changed.")


class RunCommand(ShellTool):
    """Run a shell command (/bin/sh -c) in the workspace and return its exit code and output.

    The command runs in an OS sandbox with a scrubbed environment (no secrets) and no
    network; it sees the workspace and the system's folders only. Unless approval is
    'auto' it runs in a scratch copy of the workspace and the files it creates, changes or
    deletes come back as one proposal for the user to review (`edits` says what became
    of them). A non-zero exit code is returned, not raised; a timeout kills the whole
    process tree and is an error carrying the output tail. Background processes do not
    outlive the call.
    """

    name = "run_command"
    Input = RunCommandInput
    Output = RunCommandOutput
    timeout_s = MAX_TIMEOUT_S + TIMEOUT_MARGIN_S

    def timeout_for(self, input: RunCommandInput, ctx: ToolContext) -> float:
        return call_timeout((input.timeout_s or DEFAULT_TIMEOUT_S) + TIMEOUT_MARGIN_S, ctx)

    def execute(self, input: RunCommandInput, ctx: ToolContext) -> RunCommandOutput:
        cwd = working_dir(ctx, input.cwd, self.name)
        timeout = input.timeout_s or DEFAULT_TIMEOUT_S
        in_place = edits_in_place(ctx)
        overlay = None if in_place else pending_overlay(ctx)
        result = run_checked(
            self.name, input.command, cwd, timeout, ctx, overlay=overlay, keep_changes=not in_place
        )
        edits = in_place_edits() if in_place else propose_edits(ctx, input.command, result.changes, self.name)
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
            edits=edits,
        )
