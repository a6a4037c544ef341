"""Running one parsed call: which commands are available, the call itself (cancellable),
and its `ActionResult`.

A command is available when it is enabled and the run's permissions grant what it needs.
A tool-backed command runs even when unavailable: the executor then answers with its
`permission` error (the model learns why, not "unknown tool"). Any other unavailable
command answers with a `permission` or `runtime` error of its own. What a command raises
becomes a `runtime` error carrying the exception (`ActionResult.cause`). On cancel, a
running tool gets `STOP_GRACE_S` to stop (the executor sets its cancel event and the
sandbox kills its process tree) before `asyncio.CancelledError` is raised.
Must not know: the loop's turns, particular tools, models, LSP.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from typing import Any

from agentls.agent.actions import ActionResult, Finished, ParsedCall
from agentls.agent.command import Command
from agentls.agent.context import RunContext
from agentls.llm.base import cancellable
from agentls.tools.base import ToolError
from agentls.tools.executor import ToolResult

#: After a cancel, how long a running tool gets to stop.
STOP_GRACE_S = 3.0


def available(command: Command, run: RunContext) -> bool:
    return command.is_enabled() and run.tools.permissions.allows(command.permissions)


def unavailable_lines(commands: list[Command]) -> list[str]:
    """'name, name: reason' lines, one per distinct reason."""
    by_reason: dict[str, list[str]] = {}
    for c in commands:
        by_reason.setdefault(c.disabled_reason or "disabled", []).append(c.name)
    return [f"{', '.join(names)}: {reason}" for reason, names in by_reason.items()]


def error_text(message: str, tool: str) -> str:
    """A tool message's content for a call that was not run."""
    error = {"type": "validation", "message": message, "tool": tool}
    return json.dumps({"ok": False, "error": error}, ensure_ascii=False)


async def run_call(
    command: Command, call: ParsedCall, run: RunContext, cancel: asyncio.Event
) -> ActionResult:
    start = time.perf_counter()
    try:
        if command.tool is None and not available(command, run):
            raise _unavailable(command, run)
        result = _result(call, await _invoke(command, call.arguments, cancel))
    except asyncio.CancelledError:
        raise
    except ToolError as exc:
        result = ActionResult(call, False, error={**exc.to_dict(), "tool": exc.tool or call.name})
    except Exception as exc:  # a command's bug goes back to the model as data
        message = f"{call.name} failed: {type(exc).__name__}: {exc}"
        err = ToolError("runtime", message, call.name)
        result = ActionResult(call, False, error=err.to_dict(), cause=exc)
    if not result.duration_ms:
        result.duration_ms = (time.perf_counter() - start) * 1000.0
    return result


async def _invoke(command: Command, arguments: dict[str, Any], cancel: asyncio.Event) -> Any:
    """Call the command; sync commands run inline, awaitable ones until done or cancelled
    (then a running tool gets STOP_GRACE_S to stop)."""
    value = command(**arguments)
    if not inspect.isawaitable(value):
        return value
    return await cancellable(value, cancel, grace_s=STOP_GRACE_S)


def _unavailable(command: Command, run: RunContext) -> ToolError:
    if not run.tools.permissions.allows(command.permissions):
        missing = ", ".join(run.tools.permissions.missing(command.permissions))
        message = f"{command.name} needs {missing}, which mode {run.settings.mode!r} does not grant"
        return ToolError("permission", message, command.name)
    why = command.disabled_reason or "it is disabled"
    return ToolError("runtime", f"{command.name} is not available: {why}", command.name)


def _result(call: ParsedCall, value: Any) -> ActionResult:
    if isinstance(value, ToolResult):
        return ActionResult(call, value.ok, value.output, value.error, value.duration_ms)
    if isinstance(value, Finished):
        return ActionResult(call, True, {"summary": value.summary}, finished=value)
    dump = getattr(value, "model_dump", None)
    return ActionResult(call, True, dump(mode="json") if callable(dump) else value)
