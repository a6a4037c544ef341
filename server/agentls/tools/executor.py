"""The tool executor: validate → permission check → the context's gate (a front end that
asks the user first; a refusal is a `permission` error; not asked when an auto-approve rule
covers the call, `auto_approval.call_rule`) → run with a deadline → validate output → log
(the permission decision, and the auto-approve rules that let the call or its proposals
go ahead: decision `auto-approved`).

Every failure becomes a structured `ToolError` (validation | runtime | permission) that goes
back to the caller as data; nothing a tool raises crashes the executor. A call runs in a
worker thread with its own cancel event (set on timeout, and when the run's cancel event is
set), so cooperative tools (subprocesses) stop; the caller waits for the first of the
tool's end, the run's cancel event and the deadline, woken by it (nothing polls); anything
the tool stores on its context
(an index it built, a memory it opened) is kept on the caller's context.
Must not know: any particular tool, the agent, LSP.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from agentls.tools.audit import AuditLog
from agentls.tools.auto_approval import call_rule
from agentls.tools.base import CancelEvent, Tool, ToolContext, ToolError, result_dict
from agentls.tools.registry import ToolRegistry
from agentls.workspace import PathOutsideWorkspace

_MAX_SHOWN_INPUT = 80
#: Deeper inputs are refused (validation, audit redaction and schemas recurse).
MAX_INPUT_DEPTH = 64


@dataclass(slots=True)
class ToolResult:
    """The outcome of one call. `to_dict()` is the contract shape."""

    ok: bool
    tool: str
    output: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    duration_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self.ok, self.output, self.error, self.tool)


def _input_problem(value: Any) -> str | None:
    """Where the first string holding a NUL byte is, or that the input nests deeper than
    MAX_INPUT_DEPTH; None for neither. Iterative: the input's depth is not trusted."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_INPUT_DEPTH:
            return f"the input nests deeper than {MAX_INPUT_DEPTH} levels"
        if isinstance(item, str) and "\x00" in item:
            return f"{where or 'input'!r} contains a NUL byte"
        if isinstance(item, dict):
            for k in item:
                if isinstance(k, str) and "\x00" in k:
                    return f"{f'{where}.{k!r}' if where else repr(k)!r} contains a NUL byte"
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in reversed(list(enumerate(item))))
    return None


def describe_validation_error(exc: ValidationError) -> str:
    """One line per bad field: where, why, and what was given."""
    parts: list[str] = []
    for err in exc.errors():
        msg = err["msg"].removeprefix("Value error, ")
        loc = ".".join(str(p) for p in err["loc"])
        if not loc:  # a check across fields: its message names them
            parts.append(msg)
            continue
        text = f"{loc!r}: {msg}"
        if err["type"] not in ("missing", "extra_forbidden") and "input" in err:
            shown = repr(err["input"])
            if len(shown) > _MAX_SHOWN_INPUT:
                shown = shown[: _MAX_SHOWN_INPUT - 3] + "..."
            text += f" (got {shown})"
        parts.append(text)
    return "; ".join(parts)


class ToolExecutor:
    """Runs tools from a registry, turning every outcome into a `ToolResult`."""

    def __init__(self, registry: ToolRegistry, audit: AuditLog | None = None) -> None:
        self.registry = registry
        self.audit = audit

    async def execute_async(
        self, name: str, raw_input: dict[str, Any] | None, ctx: ToolContext
    ) -> ToolResult:
        return await asyncio.to_thread(self.execute, name, raw_input, ctx)

    def execute(self, name: str, raw_input: dict[str, Any] | None, ctx: ToolContext) -> ToolResult:
        start = time.perf_counter()
        decision, missing = "not_checked", None
        approved: list[str] = []  # the auto-approve rules of this call and its proposals
        try:
            tool = self._tool(name)
            parsed = self._validate(tool, raw_input)
            needed = tool.permissions_for(parsed)
            if not ctx.permissions.allows(needed):
                decision, missing = "denied", ctx.permissions.missing(needed)
                mode = ctx.permissions.mode
                where = f"mode {mode!r}" if mode else "this run's permission set"
                raise ToolError(
                    "permission",
                    f"{name} needs {', '.join(missing)}, which {where} does not grant",
                    name,
                    missing=missing,
                    mode=mode,
                )
            if ctx.gate is not None:
                arguments = parsed.model_dump(mode="json", exclude_none=True)
                rule = call_rule(ctx.settings, ctx.permissions.mode or "", ctx.approval, name, arguments)
                if rule is not None:  # the user's rule answers for them: the gate is not asked
                    approved.append(rule)
                elif (refused := ctx.gate(tool, arguments, ctx)) is not None:
                    decision = "refused"
                    raise ToolError("permission", f"{name} was not run: {refused}", name, refused=True)
            decision = "allowed"
            output = self._run(tool, parsed, ctx, approved)
            result = ToolResult(True, name, output=output)
        except ToolError as exc:
            result = ToolResult(False, name, error=self._error_dict(exc, name))
        except PathOutsideWorkspace as exc:
            err = ToolError("permission", str(exc), name, path=exc.path, reason=exc.reason)
            result = ToolResult(False, name, error=err.to_dict())
        except Exception as exc:  # never crash on a tool's bug
            ctx.logger.debug("tool %s raised", name, exc_info=True)
            err = ToolError("runtime", f"{name} failed: {type(exc).__name__}: {exc}", name)
            result = ToolResult(False, name, error=err.to_dict())
        result.duration_ms = (time.perf_counter() - start) * 1000.0
        too_deep = "maxDepth" in (result.error or {}).get("details", {})  # redaction would recurse
        shown = {"input": "(not logged: too deep)"} if too_deep else raw_input
        if approved and decision == "allowed":
            decision = "auto-approved"
        self._log(result, shown, ctx, decision, missing, approved)
        return result

    # --- steps -------------------------------------------------------------------
    def _tool(self, name: str) -> Tool:
        tool = self.registry.get(name) if isinstance(name, str) else None
        if tool is None:
            known = ", ".join(sorted(self.registry.names)) or "(none)"
            raise ToolError("validation", f"unknown tool {name!r}; known tools: {known}", str(name))
        return tool

    @staticmethod
    def _validate(tool: Tool, raw_input: Any) -> BaseModel:
        if raw_input is None:
            raw_input = {}
        if not isinstance(raw_input, dict):
            raise ToolError(
                "validation",
                f"invalid input for {tool.name}: expected a JSON object, got {type(raw_input).__name__}",
                tool.name,
            )
        bad = _input_problem(raw_input)
        if bad:
            deep = {"maxDepth": MAX_INPUT_DEPTH} if "nests deeper" in bad else {}
            raise ToolError("validation", f"invalid input for {tool.name}: {bad}", tool.name, **deep)
        try:
            return tool.Input.model_validate(raw_input)
        except ValidationError as exc:
            detail = describe_validation_error(exc)
            raise ToolError(
                "validation", f"invalid input for {tool.name}: {detail}", tool.name
            ) from None

    def _run(self, tool: Tool, parsed: BaseModel, ctx: ToolContext, approved: list[str] | None = None) -> dict[str, Any]:
        if ctx.cancel.is_set():
            raise ToolError("runtime", f"{tool.name} was not run: the run is cancelled", tool.name)
        call_ctx = dataclasses.replace(ctx, cancel=CancelEvent(), auto_approved=approved if approved is not None else [])
        timeout = float(tool.timeout_for(parsed, call_ctx))
        box: dict[str, Any] = {}
        finished = threading.Event()
        woken = threading.Event()  # the tool ended, or the run was cancelled

        def work() -> None:
            try:
                value = tool.execute(parsed, call_ctx)
                if inspect.isawaitable(value):
                    value = asyncio.run(_await(value))
                box["value"] = value
            except BaseException as exc:  # handed to the caller's thread
                box["exc"] = exc
            finally:
                finished.set()
                woken.set()

        worker = threading.Thread(target=work, name=f"tool-{tool.name}", daemon=True)
        worker.start()
        unsubscribe = ctx.cancel.subscribe(woken.set)
        try:
            woken.wait(timeout)
        finally:
            unsubscribe()
        if not finished.is_set():
            call_ctx.cancel.set()
            worker.join(1.0)
            if ctx.cancel.is_set():
                raise ToolError("runtime", f"{tool.name} was cancelled", tool.name)
            raise ToolError(
                "runtime",
                f"{tool.name} timed out after {timeout:g} s; it was told to stop",
                tool.name,
            )
        worker.join()  # it has ended: only its last steps are left
        _keep_context_changes(ctx, call_ctx)
        exc = box.get("exc")
        if isinstance(exc, Exception):
            raise exc
        if exc is not None:  # SystemExit, KeyboardInterrupt inside a tool: not ours to obey
            raise ToolError("runtime", f"{tool.name} stopped: {type(exc).__name__}", tool.name)
        return self._check_output(tool, box.get("value"))

    @staticmethod
    def _check_output(tool: Tool, value: Any) -> dict[str, Any]:
        try:
            if isinstance(value, tool.Output):
                model = value
            elif isinstance(value, dict):
                model = tool.Output.model_validate(value)
            else:
                raise ToolError(
                    "runtime",
                    f"{tool.name} returned {type(value).__name__}, not its output object",
                    tool.name,
                )
        except ValidationError as exc:
            detail = describe_validation_error(exc)
            raise ToolError(
                "runtime", f"{tool.name} returned an invalid output: {detail}", tool.name
            ) from None
        return model.model_dump(mode="json")

    @staticmethod
    def _error_dict(exc: ToolError, name: str) -> dict[str, Any]:
        if not exc.tool:
            exc.tool = name
        return exc.to_dict()

    def _log(
        self,
        result: ToolResult,
        raw_input: Any,
        ctx: ToolContext,
        decision: str,
        missing: list[str] | None,
        approved: list[str] | None = None,
    ) -> None:
        if result.ok:
            ctx.logger.debug("tool %s ok in %.1f ms", result.tool, result.duration_ms)
        else:
            ctx.logger.info("tool %s failed: %s", result.tool, (result.error or {}).get("message"))
        if self.audit is None:
            return
        size = 0
        if result.output is not None:
            size = len(json.dumps(result.output, ensure_ascii=False).encode("utf-8"))
        self.audit.record(
            tool=result.tool,
            input=raw_input,
            duration_ms=result.duration_ms,
            output_bytes=size,
            error=result.error,
            decision=decision,
            missing=missing,
            mode=ctx.permissions.mode,
            run_id=ctx.run_id,
            auto_approved=approved,
        )


async def _await(value: Any) -> Any:
    return await value


def _keep_context_changes(ctx: ToolContext, call_ctx: ToolContext) -> None:
    """Copy back what the tool stored on its per-call context (all but the cancel event and
    the call's auto-approvals)."""
    for f in dataclasses.fields(ctx):
        if f.name in ("cancel", "auto_approved"):
            continue
        value = getattr(call_ctx, f.name)
        if value is not getattr(ctx, f.name):
            setattr(ctx, f.name, value)
