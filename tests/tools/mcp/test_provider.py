"""The MCP servers of a workspace as tools of its registry: listed with the servers' own
schemas, started on first use, disabled with the reason when they cannot start, swapped
when the settings change, and stopped — process trees included — when closed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp_servers import alive, everything, gone, pyserver

from agentls.settings import McpServerConfig
from agentls.tools.base import ToolContext
from agentls.tools.mcp import McpProvider
from agentls.tools.permissions import PermissionSet
from agentls.tools.process_tree import marked_children
from agentls.tools.registry import default_registry
from agentls.workspace import Workspace

MakeProvider = Callable[..., McpProvider]


def schemas(provider, root: Path, mode: str) -> dict[str, dict]:
    registry = default_registry()
    registry.add_source(provider)
    permissions = PermissionSet.for_mode(mode)
    ctx = ToolContext(workspace=Workspace(root), permissions=permissions)
    return {s["name"]: s for s in registry.schemas(permissions, ctx)}


def test_a_server_starts_only_when_its_tools_are_first_listed(make_provider: MakeProvider) -> None:
    provider = make_provider({"py": pyserver()})
    assert provider.status()["py"] == {"state": "idle", "reason": None, "pid": None, "tools": 0}
    names = [t.name for t in provider.tools()]
    assert {"mcp__py__add", "mcp__py__die", "mcp__py__pid"} <= set(names)
    status = provider.status()["py"]
    assert status["state"] == "ready" and alive(status["pid"])
    provider.tools()
    assert provider.status()["py"]["pid"] == status["pid"]  # listed again: the same session


def test_the_registry_lists_the_servers_tools_with_their_schemas_after_its_own(
    make_provider: MakeProvider, ws: Path
) -> None:
    listed = schemas(make_provider({"everything": everything()}), ws, "full")
    names = list(listed)
    assert names.index("finish") < names.index("mcp__everything__echo")  # built-ins first
    echo = listed["mcp__everything__echo"]
    assert echo["category"] == "mcp"
    assert echo["description"] == "Echoes back the input string"
    assert echo["inputSchema"]["properties"]["message"]["type"] == "string"
    assert echo["inputSchema"]["required"] == ["message"]
    assert echo["permissions"] == ["network", "shellExecution"]  # the default flags
    assert (echo["enabled"], echo["disabledReason"]) == (True, None)
    assert {"mcp__everything__get-sum", "mcp__everything__get-tiny-image"} <= set(listed)
    weather = listed["mcp__everything__get-structured-content"]["outputSchema"]
    assert weather["properties"]["structured_content"]["required"] == [
        "temperature",
        "conditions",
        "humidity",
    ]


def test_the_default_flags_allow_the_tools_in_full_mode_only(
    make_provider: MakeProvider, ws: Path
) -> None:
    provider = make_provider({"py": pyserver()})
    missing = {"read-only": "network, shellExecution", "dev": "shellExecution", "ci": "network"}
    for mode, flags in missing.items():
        add = schemas(provider, ws, mode)["mcp__py__add"]
        assert add["enabled"] is False
        assert add["disabledReason"] == f"it needs {flags}, which mode {mode!r} does not grant"
    granted = make_provider({"py": pyserver(permissions=("filesystemRead",))})
    assert schemas(granted, ws, "read-only")["mcp__py__add"]["enabled"] is True


BROKEN = [
    pytest.param(
        McpServerConfig(command="/nonexistent/mcp-server"),
        "'/nonexistent/mcp-server' was not found",
        id="no-such-command",
    ),
    pytest.param(
        McpServerConfig(command="sh", args=("-c", "echo cannot serve >&2; exit 3")),
        "cannot serve",
        id="exits-at-once",
    ),
    pytest.param(
        McpServerConfig(command="sh", args=("-c", "exit 0"), cwd="no/such/dir"),
        "is not a directory",
        id="missing-cwd",
    ),
]


@pytest.mark.parametrize(("entry", "reason"), BROKEN)
def test_a_server_that_cannot_start_is_one_disabled_entry_with_the_reason(
    make_provider: MakeProvider, ws: Path, entry: McpServerConfig, reason: str
) -> None:
    started = time.monotonic()
    listed = schemas(make_provider({"broken": entry, "py": pyserver()}), ws, "full")
    assert time.monotonic() - started < 15
    assert not [n for n in listed if n.startswith("mcp__broken__")]
    broken = listed["mcp__broken"]
    assert broken["enabled"] is False and broken["category"] == "mcp"
    assert "could not start" in broken["disabledReason"] and reason in broken["disabledReason"]
    assert listed["mcp__py__add"]["enabled"] is True  # the others are unaffected
    assert listed["read_file"]["enabled"] is True


def test_a_server_that_never_answers_fails_at_the_start_timeout_and_is_killed(
    make_provider: MakeProvider,
) -> None:
    provider = make_provider(
        {"mute": McpServerConfig(command="sleep", args=("60",))}, start_timeout_s=1.0
    )
    conn = provider.connection("mute")
    assert conn is not None
    started = time.monotonic()
    (entry,) = provider.tools()
    assert time.monotonic() - started < 10
    assert entry.name == "mcp__mute"
    assert entry.enabled() == (
        False,
        "the MCP server 'mute' could not start: it did not answer within 1 s",
    )
    assert marked_children(conn._marker) == []  # the sleep is gone


def test_a_streamable_http_server_is_listed_and_called(
    make_provider: MakeProvider, http_url: str
) -> None:
    provider = make_provider(
        {"web": McpServerConfig(url=http_url, headers={"X-Agentls-Test": "1"})}
    )
    tool = provider.tool("mcp__web__add")
    assert tool is not None and tool.category == "mcp"
    ctx = ToolContext(
        workspace=Workspace(provider.root), permissions=PermissionSet.for_mode("full")
    )
    output = tool.execute(tool.Input.model_validate({"a": 2, "b": 40}), ctx)
    assert output["content"] == "42" and output["structured_content"] == {"result": 42}
    dead = make_provider({"dead": McpServerConfig(url="http://127.0.0.1:9/mcp")})
    (entry,) = dead.tools()
    assert entry.enabled()[0] is False and "could not start" in (entry.enabled()[1] or "")


def test_close_stops_every_server_and_what_it_started(make_provider: MakeProvider) -> None:
    provider = make_provider({"py": pyserver(), "everything": everything()})
    provider.tools()
    child_tool = provider.tool("mcp__py__spawn_child")
    assert child_tool is not None
    ctx = ToolContext(
        workspace=Workspace(provider.root), permissions=PermissionSet.for_mode("full")
    )
    child = int(child_tool.execute(child_tool.Input.model_validate({}), ctx)["content"])
    pids = [provider.status()[name]["pid"] for name in ("py", "everything")] + [child]
    assert all(alive(p) for p in pids)
    started = time.monotonic()
    provider.close()
    assert time.monotonic() - started < 15
    assert gone(pids, within=5), [p for p in pids if alive(p)]
    assert provider.tools() == []
    provider.close()  # again: nothing happens


def test_new_settings_keep_an_unchanged_server_and_replace_a_changed_one(
    make_provider: MakeProvider,
) -> None:
    provider = make_provider({"py": pyserver(), "other": pyserver(env={"X": "1"})})
    provider.tools()
    py, other = provider.status()["py"]["pid"], provider.status()["other"]["pid"]
    provider.configure({"py": pyserver(), "other": pyserver(env={"X": "2"})})
    assert provider.status()["py"]["pid"] == py
    assert provider.status()["other"]["state"] == "idle"
    assert gone([other]), "the changed server's old process is still running"
    provider.tools()
    assert alive(provider.status()["other"]["pid"]) and provider.status()["other"]["pid"] != other
    provider.configure({})
    assert provider.tools() == [] and gone([py])


async def test_a_listing_on_an_event_loop_never_waits_for_a_server(
    make_provider: MakeProvider,
) -> None:
    provider = make_provider({"py": pyserver()})
    started = time.monotonic()
    (entry,) = provider.tools()  # on this test's loop: the server starts in the background
    assert time.monotonic() - started < 0.5
    assert entry.name == "mcp__py" and entry.enabled() == (False, "the MCP server 'py' is starting")
    await asyncio.wait_for(provider.prepare(), 30)
    assert "mcp__py__add" in [t.name for t in provider.tools()]
