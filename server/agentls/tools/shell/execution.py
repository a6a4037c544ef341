"""How a shell tool runs one process: pick the working directory, run it in the sandbox,
and turn a timeout or a cancellation into a `runtime` ToolError carrying the output tail.

A non-zero exit code is *not* an error here: the model reads the exit code.
Must not know: any particular tool, what the command does, how the sandbox confines it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.sandbox import ProcessResult, SandboxConfig, run_process
from agentls.workspace import PathOutsideWorkspace

TAIL_CHARS = 4000


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
) -> ProcessResult:
    """Run in the sandbox; a timeout or cancellation becomes a `runtime` ToolError."""
    result = run_process(command, cwd, timeout_s, ctx, overlay=overlay, config=config)
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
