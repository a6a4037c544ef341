"""The executor: every failure is structured data, never an exception."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, ClassVar

import pytest

from agentls.tools.base import CancelEvent, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.permissions import READ, SHELL, WRITE, Permission, PermissionSet
from agentls.tools.registry import ToolRegistry
from agentls.workspace import PathOutsideWorkspace


class EchoInput(ToolInput):
    text: str
    count: int = 1
    tags: list[str] = []


class EchoOutput(ToolOutput):
    text: str


class Echo(Tool):
    """Echo the text."""

    name = "echo"
    category = "system"
    permissions: ClassVar[frozenset[Permission]] = frozenset({READ})
    Input = EchoInput
    Output = EchoOutput
    behaviour: ClassVar[dict[str, Any]] = {}

    def permissions_for(self, input: EchoInput) -> frozenset[Permission]:
        return frozenset({READ, WRITE}) if input.text == "write" else self.permissions

    def execute(self, input: EchoInput, ctx: ToolContext) -> Any:
        action = self.behaviour.get(input.text)
        if action is not None:
            return action(ctx)
        return EchoOutput(text=input.text * input.count)


def _raise(exc: BaseException) -> Any:
    def go(ctx: ToolContext) -> Any:
        raise exc

    return go


def _sleep_until_cancelled(ctx: ToolContext) -> Any:
    ctx.extra["cancel_seen"] = ctx.cancel.wait(5)
    return {"text": "late"}


def _store_memory(ctx: ToolContext) -> Any:
    ctx.memory = "opened"
    return {"text": "ok"}


async def _async_result() -> dict[str, str]:
    await asyncio.sleep(0)
    return {"text": "async"}


Echo.behaviour.update(
    {
        "boom": _raise(RuntimeError("disk on fire")),
        "tool-error": _raise(ToolError("runtime", "expected failure", "")),
        "outside": _raise(PathOutsideWorkspace("../x", "it resolves outside the workspace root")),
        "exit": _raise(SystemExit(3)),
        "bad-output": lambda ctx: {"text": 5},
        "extra-output": lambda ctx: {"text": "a", "more": 1},
        "not-a-model": lambda ctx: 42,
        "dict": lambda ctx: {"text": "from dict"},
        "slow": _sleep_until_cancelled,
        "memory": _store_memory,
        "async": lambda ctx: _async_result(),
    }
)


class Slow(Echo):
    """Slow echo."""

    name = "slow_echo"
    timeout_s = 0.2


@pytest.fixture
def executor() -> ToolExecutor:
    return ToolExecutor(ToolRegistry([Echo, Slow]))


@pytest.fixture
def ctx(make_ctx) -> ToolContext:
    return make_ctx("read-only")


def _error(result: ToolResult) -> dict[str, Any]:
    assert not result.ok, result
    assert result.error is not None
    return result.error


@pytest.mark.parametrize(
    ("raw", "fragments"),
    [
        ({}, ["'text': Field required"]),
        ({"text": 3}, ["'text'", "valid string", "got 3"]),
        ({"text": "a", "count": "x"}, ["'count'", "valid integer"]),
        ({"text": "a", "colour": "red"}, ["'colour'", "Extra inputs are not permitted"]),
        ({"count": "x"}, ["'text': Field required", "'count'"]),
        ({"text": "a\x00b"}, ["'text' contains a NUL byte"]),
        ({"text": "a", "tags": ["ok", "b\x00"]}, ["'tags[1]' contains a NUL byte"]),
        ([1, 2], ["expected a JSON object, got list"]),
    ],
)
def test_invalid_input_is_a_validation_error_naming_each_field(executor, ctx, raw, fragments):
    err = _error(executor.execute("echo", raw, ctx))
    assert err["type"] == "validation"
    assert err["tool"] == "echo"
    for fragment in fragments:
        assert fragment in err["message"]


def test_unknown_tool_lists_the_known_names(executor, ctx):
    err = _error(executor.execute("ech", {}, ctx))
    assert err["type"] == "validation"
    assert "unknown tool 'ech'" in err["message"]
    assert "echo, slow_echo" in err["message"]


@pytest.mark.parametrize(
    ("mode", "text", "ok", "missing"),
    [
        ("read-only", "hi", True, None),
        ("read-only", "write", False, "filesystemWrite"),
        ("dev", "write", True, None),
        ("ci", "write", False, "filesystemWrite"),
    ],
)
def test_permission_check_uses_the_input_dependent_needs(
    executor, make_ctx, mode, text, ok, missing
):
    result = executor.execute("echo", {"text": text}, make_ctx(mode))
    assert result.ok is ok
    if not ok:
        err = _error(result)
        assert err["type"] == "permission"
        assert missing in err["message"] and f"mode {mode!r}" in err["message"]
        assert err["details"]["missing"] == [missing]


def test_permission_set_without_a_mode(executor, make_ctx):
    ctx = make_ctx()
    ctx.permissions = PermissionSet(frozenset({SHELL}))
    err = _error(executor.execute("echo", {"text": "hi"}, ctx))
    assert err["type"] == "permission"
    assert "filesystemRead" in err["message"]


@pytest.mark.parametrize(
    ("text", "etype", "fragment"),
    [
        ("boom", "runtime", "RuntimeError: disk on fire"),
        ("tool-error", "runtime", "expected failure"),
        ("outside", "permission", "'../x' is refused: it resolves outside"),
        ("exit", "runtime", "SystemExit"),
        ("bad-output", "runtime", "invalid output: 'text'"),
        ("extra-output", "runtime", "'more': Extra inputs"),
        ("not-a-model", "runtime", "returned int"),
    ],
)
def test_tool_failures_become_structured_errors(executor, ctx, text, etype, fragment):
    err = _error(executor.execute("echo", {"text": text}, ctx))
    assert err["type"] == etype
    assert err["tool"] == "echo"
    assert fragment in err["message"]


def test_outside_path_error_carries_the_path_and_reason(executor, ctx):
    err = _error(executor.execute("echo", {"text": "outside"}, ctx))
    assert err["details"] == {"path": "../x", "reason": "it resolves outside the workspace root"}


@pytest.mark.parametrize(
    ("text", "expected"), [("ab", "ab"), ("dict", "from dict"), ("async", "async")]
)
def test_outputs_from_models_dicts_and_coroutines(executor, ctx, text, expected):
    result = executor.execute("echo", {"text": text}, ctx)
    assert result.ok, result.error
    assert result.output == {"text": expected}
    assert result.to_dict() == {"ok": True, "output": {"text": expected}}
    assert result.duration_ms > 0


def test_error_to_dict_is_exactly_the_contract(executor, ctx):
    result = executor.execute("echo", {"text": "outside"}, ctx)
    assert result.to_dict() == {
        "ok": False,
        "error": {"type": "permission", "message": result.error["message"], "tool": "echo"},
    }


def test_timeout_sets_the_call_cancel_event_and_is_a_runtime_error(executor, ctx):
    started = time.perf_counter()
    err = _error(executor.execute("slow_echo", {"text": "slow"}, ctx))
    assert time.perf_counter() - started < 2.0
    assert err["type"] == "runtime"
    assert "timed out after 0.2 s" in err["message"]
    deadline = time.monotonic() + 2
    while "cancel_seen" not in ctx.extra and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ctx.extra["cancel_seen"] is True  # the cooperative tool saw its cancel event
    assert not ctx.cancel.is_set()  # the run itself is not cancelled


def test_cancelling_the_run_stops_a_running_call(executor, ctx):
    threading.Timer(0.05, ctx.cancel.set).start()
    err = _error(executor.execute("echo", {"text": "slow"}, ctx))
    assert err["type"] == "runtime" and "cancelled" in err["message"]


class CountingCancel(CancelEvent):
    """Counts the checks of the run's cancel event made after a waiter subscribed."""

    def __init__(self) -> None:
        super().__init__()
        self.subscribed = threading.Event()
        self.checks = 0

    def subscribe(self, callback: Any) -> Any:
        unsubscribe = super().subscribe(callback)
        self.subscribed.set()
        return unsubscribe

    def is_set(self) -> bool:
        self.checks += self.subscribed.is_set()
        return super().is_set()


GATE = threading.Event()
Echo.behaviour["gated"] = lambda ctx: {"text": "through"} if GATE.wait(10) else {"text": "shut"}


@pytest.mark.parametrize("ending", ["the tool ends", "the run is cancelled"])
def test_the_caller_is_woken_by_the_end_or_the_cancel_not_by_polling(executor, ctx, ending):
    GATE.clear()
    ctx.cancel = cancel = CountingCancel()
    result: list[ToolResult] = []
    caller = threading.Thread(target=lambda: result.append(executor.execute("echo", {"text": "gated"}, ctx)))
    caller.start()
    assert cancel.subscribed.wait(10)  # the caller waits now
    time.sleep(0.3)  # a poll every 50 ms would have checked the cancel event meanwhile
    assert cancel.checks == 0
    if ending == "the tool ends":
        GATE.set()
    else:
        cancel.set()
    caller.join(10)
    GATE.set()
    (outcome,) = result
    if ending == "the tool ends":
        assert outcome.ok and outcome.output == {"text": "through"}
    else:
        assert not outcome.ok and "was cancelled" in outcome.error["message"]


def test_a_cancelled_run_runs_nothing(executor, ctx):
    ctx.cancel.set()
    err = _error(executor.execute("echo", {"text": "hi"}, ctx))
    assert "cancelled" in err["message"]


def test_what_a_tool_stores_on_its_context_is_kept(executor, ctx):
    assert executor.execute("echo", {"text": "memory"}, ctx).ok
    assert ctx.memory == "opened"


async def test_execute_async_runs_off_the_event_loop(executor, ctx):
    result = await executor.execute_async("echo", {"text": "hi", "count": 2}, ctx)
    assert result.to_dict() == {"ok": True, "output": {"text": "hihi"}}



def test_input_nested_beyond_any_recursion_limit_is_a_validation_error(executor, ctx):
    """Depth is refused before validation and audit redaction (both recurse), so a
    hostile input cannot raise RecursionError anywhere in the executor."""
    from agentls.tools.executor import MAX_INPUT_DEPTH

    deep: Any = "leaf"
    for _ in range(5000):
        deep = {"k": [deep]}
    err = _error(executor.execute("echo", {"text": "a", "tags": deep}, ctx))
    assert err["type"] == "validation" and f"deeper than {MAX_INPUT_DEPTH}" in err["message"]
    shallow: Any = "x"
    for _ in range(MAX_INPUT_DEPTH - 2):
        shallow = [shallow]
    assert "deeper" not in _error(executor.execute("echo", {"text": "a", "tags": shallow}, ctx))["message"]


RESULTS = [
    ((True, {"x": 1}, None, "t"), {"ok": True, "output": {"x": 1}}),
    ((True, None, {"type": "runtime"}, "t"), {"ok": True, "output": None}),
    (
        (False, None, {"type": "permission", "message": "no", "tool": "own", "details": {}}, "t"),
        {"ok": False, "error": {"type": "permission", "message": "no", "tool": "own"}},
    ),
    ((False, None, None, "t"), {"ok": False, "error": {"type": "runtime", "message": "", "tool": "t"}}),
]


@pytest.mark.parametrize(("args", "shape"), RESULTS)
def test_a_tool_result_and_an_agent_action_share_the_contract_shape(args, shape):
    from agentls.agent.actions import ActionResult, ParsedCall
    from agentls.tools.executor import ToolResult

    ok, output, error, tool = args
    assert ToolResult(ok, tool, output, error).to_dict() == shape
    assert ActionResult(ParsedCall("c1", tool, {}), ok, output, error).to_dict() == shape


def test_the_gate_is_asked_before_a_call_and_a_refusal_runs_nothing(executor: ToolExecutor, ctx: ToolContext) -> None:
    ran: list[str] = []
    asked: list[tuple[str, dict[str, Any]]] = []
    Echo.behaviour["mark"] = lambda c: ran.append("ran") or EchoOutput(text="ran")

    def gate(tool: Tool, arguments: dict[str, Any], context: ToolContext) -> str | None:
        asked.append((tool.name, arguments))
        return "rejected by the user" if arguments["text"] == "mark" else None

    ctx.gate = gate
    try:
        refused = executor.execute("echo", {"text": "mark"}, ctx)
        allowed = executor.execute("echo", {"text": "hi"}, ctx)
        denied = executor.execute("echo", {"text": "write"}, ctx)  # the permissions come first
    finally:
        Echo.behaviour.pop("mark")
    error = _error(refused)
    assert error["type"] == "permission" and "was not run: rejected by the user" in error["message"]
    assert ran == [] and allowed.ok and allowed.output == {"text": "hi"}
    assert _error(denied)["type"] == "permission"
    assert [name for name, _ in asked] == ["echo", "echo"]  # not asked about the denied call
    assert asked[0][1] == {"text": "mark", "count": 1, "tags": []}
