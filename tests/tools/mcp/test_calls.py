"""Calls of MCP tools through the executor: the arguments checked against the server's
schema before it is called, the permission check, the result's content (text joined,
structured content kept, images and resources summarised), `isError` and a server that
dies mid-call as structured errors, and a cancelled call that returns at once."""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp_servers import alive, everything, pyserver

from agentls.tools.audit import AuditLog
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.mcp import McpProvider
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import ToolRegistry
from agentls.workspace import Workspace


@pytest.fixture
def call_log(tmp_path: Path) -> Path:
    return tmp_path / "calls.log"


@pytest.fixture
def provider(ws: Path, call_log: Path) -> Any:
    provider = McpProvider(
        ws, {"py": pyserver(env={"CALL_LOG": str(call_log)}), "everything": everything()}
    )
    yield provider
    provider.close()


@pytest.fixture
def executor(provider: McpProvider, ws: Path) -> ToolExecutor:
    registry = ToolRegistry()
    registry.add_source(provider)
    return ToolExecutor(registry, AuditLog.for_workspace(ws))


def run(
    executor: ToolExecutor,
    ws: Path,
    name: str,
    args: dict[str, Any],
    mode: str = "full",
    **ctx: Any,
) -> ToolResult:
    context = ToolContext(workspace=Workspace(ws), permissions=PermissionSet.for_mode(mode), **ctx)
    return executor.execute(name, args, context)


def test_a_call_returns_the_servers_text(executor: ToolExecutor, ws: Path) -> None:
    result = run(executor, ws, "mcp__everything__echo", {"message": "hello"})
    assert result.to_dict() == {
        "ok": True,
        "output": {"content": "Echo: hello", "structured_content": None, "truncated": False},
    }
    audit = (ws / ".agentls" / "audit.jsonl").read_text().splitlines()
    assert '"tool": "mcp__everything__echo"' in audit[-1]


def test_structured_content_is_kept_and_images_and_resources_are_summarised(
    executor: ToolExecutor, ws: Path
) -> None:
    weather = (
        run(executor, ws, "mcp__everything__get-structured-content", {"location": "Chicago"}).output
        or {}
    )
    assert set(weather["structured_content"]) == {"temperature", "conditions", "humidity"}
    image = run(executor, ws, "mcp__everything__get-tiny-image", {}).output or {}
    assert "[image: image/png, " in image["content"] and "KB]" in image["content"]
    assert len(image["content"]) < 300  # summarised, not the base64 data
    blob = (
        run(
            executor,
            ws,
            "mcp__everything__get-resource-reference",
            {"resourceType": "Blob", "resourceId": 2},
        ).output
        or {}
    )
    # the blob is "Resource 2: This is a base64 blob created at <local time>": 55 bytes
    # before 10 o'clock ("1:05:09 PM"), 56 after
    summary = re.search(r"\[resource demo://resource/dynamic/blob/2 \(text/plain\), (\d+) bytes of binary data\]", blob["content"])
    assert summary is not None and int(summary.group(1)) in (55, 56), blob["content"]
    text = (
        run(
            executor,
            ws,
            "mcp__everything__get-resource-reference",
            {"resourceType": "Text", "resourceId": 1},
        ).output
        or {}
    )
    assert re.search(  # 62 or 63 characters: the text carries the local time too
        r"\[resource demo://resource/dynamic/text/1 \(text/plain\), 6[23] characters, opening: Resource 1:",
        text["content"],
    ), text["content"]
    links = run(executor, ws, "mcp__everything__get-resource-links", {"count": 1}).output or {}
    assert "[resource link: demo://resource/dynamic/" in links["content"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"a": "two", "b": 3},
            "invalid input for mcp__py__add: 'a': 'two' is not of type 'integer'",
        ),
        ({"a": 2}, "invalid input for mcp__py__add: 'b' is a required property"),
        ({"a": 1, "b": 2, "c\x00": 3}, "contains a NUL byte"),
    ],
    ids=["wrong-type", "missing", "nul"],
)
def test_bad_arguments_are_a_validation_error_and_the_server_is_not_called(
    executor: ToolExecutor, ws: Path, call_log: Path, args: dict[str, Any], message: str
) -> None:
    result = run(executor, ws, "mcp__py__add", args)
    assert not result.ok and result.error is not None
    assert result.error["type"] == "validation" and result.error["tool"] == "mcp__py__add"
    assert message in result.error["message"]
    assert run(executor, ws, "mcp__py__add", {"a": 1, "b": 2}).output == {
        "content": "3", "structured_content": {"result": 3}, "truncated": False,
    }  # fmt: skip
    assert call_log.read_text() == "add 1 2\n"  # only the good call reached the server


def test_a_mode_without_the_entrys_flags_is_refused_before_the_server_is_called(
    executor: ToolExecutor, ws: Path, call_log: Path
) -> None:
    result = run(executor, ws, "mcp__py__add", {"a": 1, "b": 2}, mode="dev")
    assert result.error == {
        "type": "permission",
        "message": "mcp__py__add needs shellExecution, which mode 'dev' does not grant",
        "tool": "mcp__py__add",
        "details": {"missing": ["shellExecution"], "mode": "dev"},
    }
    assert not call_log.exists()


def test_an_is_error_result_is_a_runtime_error_with_the_servers_message(
    executor: ToolExecutor, ws: Path
) -> None:
    result = run(executor, ws, "mcp__py__refuse", {"why": "not today"})
    assert result.to_dict()["error"] == {
        "type": "runtime",
        "message": "the MCP tool reported an error: Error executing tool refuse: refused: not today",
        "tool": "mcp__py__refuse",
    }


def test_a_server_that_dies_mid_call_fails_that_call_and_the_next_call_starts_it_again(
    executor: ToolExecutor, provider: McpProvider, ws: Path
) -> None:
    first = int(run(executor, ws, "mcp__py__pid", {}).output["content"])  # type: ignore[index]
    started = time.monotonic()
    result = run(executor, ws, "mcp__py__die", {})
    assert time.monotonic() - started < 10
    assert not result.ok and result.error is not None and result.error["type"] == "runtime"
    assert "the MCP server 'py' stopped" in result.error["message"]
    assert "during this call" in result.error["message"]
    assert not alive(first)
    assert provider.status()["py"]["state"] == "crashed"
    assert "mcp__py__add" in [t.name for t in provider.tools()]  # still listed, still enabled
    again = int(run(executor, ws, "mcp__py__pid", {}).output["content"])  # type: ignore[index]
    assert again != first and alive(again) and again != os.getpid()
    assert run(
        executor, ws, "mcp__everything__echo", {"message": "still here"}
    ).ok  # the others went on


def test_a_cancelled_call_returns_at_once(executor: ToolExecutor, ws: Path) -> None:
    run(executor, ws, "mcp__py__pid", {})  # started
    ctx = ToolContext(workspace=Workspace(ws), permissions=PermissionSet.for_mode("full"))
    threading.Timer(0.5, ctx.cancel.set).start()
    started = time.monotonic()
    result = executor.execute("mcp__py__slow", {"seconds": 30}, ctx)
    assert time.monotonic() - started < 5
    assert result.error is not None and result.error["message"] == "mcp__py__slow was cancelled"
