"""How a shell tool runs one process: the shell tools' base (listed as disabled, with the
reason, where no sandbox works and none was opted out of), the working directory, the
run in the sandbox, and a timeout or a cancellation as a `runtime` ToolError carrying the
output tail; no usable sandbox is a `permission` error.

A non-zero exit code is *not* an error here: the model reads the exit code.
Must not know: any particular tool, what the command does, how the sandbox confines it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from agentls.tools.base import Tool, ToolContext, ToolError
from agentls.tools.permissions import SHELL
from agentls.tools.sandbox import (
    ProcessResult,
    SandboxConfig,
    SandboxUnavailable,
    run_process,
    sandbox_for,
    sandbox_status,
)
from agentls.workspace import PathOutsideWorkspace

TAIL_CHARS = 4000


class ShellTool(Tool):
    """A tool that runs processes: it needs shellExecution and a sandbox that works here."""

    category = "shell"
    permissions = frozenset({SHELL})

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        return sandbox_status(ctx)


def sandbox_or_refuse(ctx: ToolContext, tool: str) -> SandboxConfig:
    """The context's sandbox; none that works (and no opt-out) is a `permission` error."""
    try:
        return sandbox_for(ctx)
    except SandboxUnavailable as exc:
        raise ToolError("permission", f"shell commands are disabled: {exc}", tool) from None


def working_dir(ctx: ToolContext, path: str | None, tool: str) -> Path:
    """The confined real directory for `path` (default: the context's cwd)."""
    try:
        resolved = ctx.workspace.resolve(path if path not in (None, "") else ctx.cwd)
    except PathOutsideWorkspace as exc:
        raise ToolError("permission", str(exc), tool, path=exc.path) from None
    if not resolved.is_dir():
        what = "does not exist" if not resolved.exists() else "is not a directory"
        raise ToolError("runtime", f"working directory {path or ctx.cwd!r} {what}", tool)
    return resolved


def run_checked(
    tool: str,
    command: str | Sequence[str],
    cwd: Path,
    timeout_s: float,
    ctx: ToolContext,
    *,
    overlay: Mapping[str, bytes | None] | None = None,
    config: SandboxConfig | None = None,
    keep_changes: bool = False,
) -> ProcessResult:
    """Run in the sandbox; a timeout or cancellation becomes a `runtime` ToolError."""
    config = config or sandbox_or_refuse(ctx, tool)
    result = run_process(
        command, cwd, timeout_s, ctx, overlay=overlay, config=config, keep_changes=keep_changes
    )
    if result.timed_out or result.cancelled:
        why = f"timed out after {timeout_s:g} s" if result.timed_out else "was cancelled"
        tail = result.tail(TAIL_CHARS) or "(no output)"
        raise ToolError(
            "runtime",
            f"command {why}; its whole process tree was killed. Output tail:\n{tail}",
            tool,
            timed_out=result.timed_out,
            cancelled=result.cancelled,
            duration_ms=result.duration_ms,
            sandbox=result.sandbox,
        )
    return result
