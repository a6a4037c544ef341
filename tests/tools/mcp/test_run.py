"""MCP tools in a run, started as every front end starts one (`start_run` with the workspace's
Workbench opened with the settings): offered to the model, called through the executor,
their result seen on the next turn; refused by the mode with nothing written; a server that
cannot start leaves the run going; and the workbench's close stops the servers."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp_servers import everything, filesystem, gone
from tests.agent.conftest import SpyModel, act, finish, plan, write_script

from agentls.agent.launch import RunRequest, Workbench, start_run
from agentls.agent.run import RunState
from agentls.settings import McpServerConfig, Settings
from agentls.workspace import Workspace


async def run(
    ws: Path,
    tmp_path: Path,
    servers: dict[str, McpServerConfig],
    script: list[dict[str, Any]],
    goal: str,
    mode: str,
) -> tuple[RunState, SpyModel, Workbench]:
    settings = Settings.model_validate(
        {"mcpServers": {k: v.model_dump() for k, v in servers.items()}}
    )
    bench = Workbench.open(Workspace(ws), settings=settings)
    model = SpyModel(write_script(tmp_path / "script.jsonl", script))
    try:
        handle = start_run(
            bench, RunRequest(goal, mode=mode, approval="never"), settings=settings, model=model
        )
        state = await asyncio.wait_for(handle.wait(), 90)
    except BaseException:
        await bench.aclose()
        raise
    return state, model, bench


def tool_messages(model: SpyModel, turn: int) -> list[str]:
    """The tool results the `turn`-th acting turn was shown."""
    messages = model.turns[[i for i, t in enumerate(model.turns) if t.kind == "act"][turn]].messages
    return [str(m.get("content")) for m in messages if m.get("role") == "tool"]


async def test_a_full_mode_run_calls_an_mcp_tool_and_the_model_sees_its_result(
    ws: Path, tmp_path: Path
) -> None:
    script = [
        plan("Ask the echo tool"),
        act("mcp__everything__echo", {"message": "hello from the run"}),
        finish("The echo tool answered."),
        plan(),
    ]
    goal = "What does the echo tool of the everything server answer to 'hello from the run'?"
    state, model, bench = await run(
        ws, tmp_path, {"everything": everything()}, script, goal, "full"
    )
    try:
        first = [t for t in model.turns if t.kind == "act"][0]
        assert "mcp__everything__echo" in first.tools
        spec = next(s for s in first.specs if s["function"]["name"] == "mcp__everything__echo")
        assert spec["function"]["parameters"]["required"] == ["message"]
        (result,) = tool_messages(model, 1)
        assert json.loads(result)["output"]["content"] == "Echo: hello from the run"
        assert state.status == "completed", state.error
        pid = bench.mcp.status()["everything"]["pid"] if bench.mcp else None
        assert pid is not None
    finally:
        await bench.aclose()
    assert gone([pid]), "the server outlived the workbench"


async def test_a_write_the_mode_does_not_grant_is_refused_and_nothing_is_written(
    ws: Path, tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    target = allowed / "note.txt"
    script = [
        plan("Write the note"),
        act("mcp__filesystem__write_file", {"path": str(target), "content": "written"}),
        finish("The filesystem server may not write here."),
        plan(),
    ]
    goal = "Tell me whether the filesystem server's write_file tool may write note.txt."
    state, model, bench = await run(
        ws, tmp_path, {"filesystem": filesystem(allowed)}, script, goal, "dev"
    )
    await bench.aclose()
    first = [t for t in model.turns if t.kind == "act"][0]
    assert "mcp__filesystem__write_file" not in first.tools  # not offered: dev lacks shellExecution
    (result,) = tool_messages(model, 1)
    error = json.loads(result)["error"]
    assert error["type"] == "permission" and "shellExecution" in error["message"]
    assert not target.exists()
    assert state.status != "running"


async def test_an_entry_granting_filesystem_write_lets_its_server_write_in_dev_mode(
    ws: Path, tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    target = allowed / "note.txt"
    entry = filesystem(allowed, permissions=("filesystemRead", "filesystemWrite"))
    script = [
        plan("Write the note"),
        act("mcp__filesystem__write_file", {"path": str(target), "content": "written"}),
        finish("Written."),
        plan(),
    ]
    goal = "Tell me whether the filesystem server's write_file tool may write note.txt."
    _, model, bench = await run(ws, tmp_path, {"filesystem": entry}, script, goal, "dev")
    await bench.aclose()
    assert "mcp__filesystem__write_file" in [t for t in model.turns if t.kind == "act"][0].tools
    (result,) = tool_messages(model, 1)
    assert json.loads(result)["ok"] is True
    assert target.read_text() == "written"  # the server writes itself: no proposal


async def test_a_server_that_cannot_start_leaves_the_run_going(ws: Path, tmp_path: Path) -> None:
    servers = {
        "broken": McpServerConfig(command="/nonexistent/mcp-server"),
        "everything": everything(),
    }
    script = [
        plan("Ask the echo tool"),
        act("mcp__broken", {}),
        act("mcp__everything__echo", {"message": "still works"}),
        finish("The echo tool answered."),
        plan(),
    ]
    goal = "What does the echo tool of the everything server answer to 'still works'?"
    state, model, bench = await run(ws, tmp_path, servers, script, goal, "full")
    await bench.aclose()
    first = [t for t in model.turns if t.kind == "act"][0]
    assert "mcp__broken" not in first.tools and "mcp__everything__echo" in first.tools
    assert (
        "mcp__broken" in first.text() and "was not found" in first.text()
    )  # listed unavailable, with why
    (refused,) = tool_messages(model, 1)
    assert "could not start" in json.loads(refused)["error"]["message"]
    assert json.loads(tool_messages(model, 2)[-1])["output"]["content"] == "Echo: still works"
    assert state.status == "completed", state.error


@pytest.mark.parametrize(
    ("goal", "offered"),
    [
        ("What does the echo tool answer to 'hi'?", {"mcp__everything__echo"}),
        ("What is the sum of 2 and 3, by the tool?", {"mcp__everything__get-sum"}),
        (
            "Which tools does the everything server have?",
            {"mcp__everything__echo", "mcp__everything__get-sum"},
        ),
        (
            "Ask the MCP tools for a tiny image.",
            {"mcp__everything__echo", "mcp__everything__get-tiny-image"},
        ),
        ("What does main in src/app.py return?", set()),
    ],
    ids=["names-the-tool", "names-a-part", "names-the-server", "says-mcp", "unrelated"],
)
async def test_a_small_model_is_offered_the_mcp_tools_its_goal_names(
    ws: Path, tmp_path: Path, goal: str, offered: set[str]
) -> None:
    (ws / "src").mkdir()
    (ws / "src" / "app.py").write_text("def main():\n    return 1\n")
    settings = Settings.model_validate({"mcpServers": {"everything": everything().model_dump()}})
    bench = Workbench.open(Workspace(ws), settings=settings)
    model = SpyModel(write_script(tmp_path / "script.jsonl", [finish("done")]))
    model.small = True  # as the embedded model says of itself
    try:
        handle = start_run(
            bench, RunRequest(goal, mode="full", approval="never"), settings=settings, model=model
        )
        await asyncio.wait_for(handle.wait(), 60)
    finally:
        await bench.aclose()
    tools = {
        t for t in [t for t in model.turns if t.kind == "act"][0].tools if t.startswith("mcp__")
    }
    assert offered <= tools and (tools == set()) is (offered == set()), tools
