"""`agentls mcp` on stdio, driven by the official Python SDK's client: the read-only
catalog with our schemas, code-analysis answers at the right place, reads confined to the
workspace, and every bad call an `isError` result with the structured error, after which
the server still answers."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from mcp_types.version import LATEST_HANDSHAKE_VERSION

from agentls.tools.registry import default_registry
from tests.mcp.harness import running, stdio_session, text, workspace

READ_ONLY = {"read_file", "list_directory", "search_files", "parse_ast", "find_symbol_definition",
             "find_references", "dependency_graph"}  # fmt: skip
WRITERS = {"write_file", "edit_file", "replace_symbol", "insert_symbol", "add_docstring", "rename_symbol"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return workspace(tmp_path)


async def test_read_only_lists_the_read_and_analysis_tools_with_their_own_schemas(root: Path) -> None:
    registry = default_registry()
    async with stdio_session(root) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) >= READ_ONLY
    assert not WRITERS & set(tools), "read-only offers no write tool"
    assert not {"run_command", "web_fetch", "git_commit", "finish"} & set(tools)
    for name, tool in tools.items():
        ours = registry.get(name)
        assert ours is not None
        assert tool.input_schema == ours.Input.model_json_schema(), name
        assert tool.output_schema == ours.Output.model_json_schema(), name
        assert tool.description == ours.description()


async def test_definition_references_and_outline_answer_at_the_right_place(root: Path) -> None:
    async with stdio_session(root) as session:
        # `Circle` in `def total(circles: list[Circle])` (pkg/main.py line 3)
        found = await session.call_tool("find_symbol_definition", {
            "symbol": "Circle", "path": "pkg/main.py", "line": 3, "character": 24})  # fmt: skip
        refs = await session.call_tool("find_references", {
            "symbol": "area", "path": "pkg/shapes.py", "line": 7, "character": 8})  # fmt: skip
        outline = await session.call_tool("parse_ast", {"path": "pkg/shapes.py"})
    assert not found.is_error and found.structured_content == text(found)
    assert found.structured_content["how"] == "resolved"
    [where] = found.structured_content["locations"]
    assert (where["path"], where["line"], where["character"], where["kind"]) == ("pkg/shapes.py", 3, 6, "class")
    places = {(loc["path"], loc["line"], loc["character"]) for loc in text(refs)["locations"]}
    assert {("pkg/main.py", 4, 17), ("pkg/main.py", 4, 58)} <= places  # c.area(), unit_circle().area()
    symbols = {s["name"]: s for s in text(outline)["symbols"]}
    assert symbols["unit_circle"]["line"] == 11
    assert [c["name"] for c in symbols["Circle"]["children"] if c["kind"] == "method"] == ["__init__", "area"]


async def test_read_file_reads_the_workspace_and_refuses_every_path_outside(root: Path) -> None:
    os.symlink(root.parent / "outside.txt", root / "link.txt")
    refused = ["../outside.txt", "/etc/passwd", str(root.parent / "outside.txt"), "link.txt", "pkg/../../outside.txt"]
    async with stdio_session(root) as session:
        ok = await session.call_tool("read_file", {"path": "pkg/shapes.py", "start_line": 3, "end_line": 4})
        results = {path: await session.call_tool("read_file", {"path": path}) for path in refused}
        listing = await session.call_tool("list_directory", {"path": ".."})
    assert not ok.is_error and text(ok)["content"] == "class Circle:\n"
    for path, result in {**results, "list_directory ..": listing}.items():
        assert result.is_error, path
        error = text(result)
        assert set(error) == {"type", "message", "tool"} and error["type"] == "permission", (path, error)
        assert "secret" not in result.content[0].text


async def test_bad_calls_are_error_results_and_the_server_goes_on(root: Path) -> None:
    cases = [  # (tool, arguments, error type, words in the message)
        ("read_file", {"pth": "pkg/main.py"}, "validation", "'path': Field required"),
        ("read_file", {"path": 7}, "validation", "'path'"),
        ("find_symbol_definition", {"symbol": ""}, "validation", "'symbol'"),
        ("no_such_tool", {}, "validation", "unknown tool 'no_such_tool'"),
        ("finish", {"summary": "done"}, "validation", "not offered over MCP"),
        ("edit_file", {"path": "pkg/main.py", "old": "total", "new": "sum_all"}, "permission", "filesystemWrite"),
        ("read_file", {"path": "missing.py"}, "runtime", "missing.py"),
    ]
    async with stdio_session(root) as session:
        for name, arguments, kind, words in cases:
            result = await session.call_tool(name, arguments)
            assert result.is_error and result.structured_content is None, name
            assert text(result) == {"type": kind, "message": text(result)["message"], "tool": name}
            assert words in text(result)["message"], (name, text(result))
        after = await session.call_tool("read_file", {"path": "pkg/main.py"})
        assert not after.is_error and "def total" in text(after)["content"]
        assert len((await session.list_tools()).tools) >= len(READ_ONLY)
    assert (root / "pkg" / "main.py").read_text().count("def total") == 1


def test_input_no_client_would_send_is_answered_and_the_server_goes_on(root: Path) -> None:
    """Raw JSON lines: not JSON, params of the wrong shape, an unknown method; each gets a
    JSON-RPC error (or is dropped), and the next request is answered."""
    with running(root) as server:
        server.send("this is not JSON")
        server.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})  # fmt: skip
        assert "result" in server.answer(1)
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "read_file", "arguments": "x"}})
        server.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 5}})
        server.send({"jsonrpc": "2.0", "id": 4, "method": "no/such/method", "params": {}})
        server.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "read_file", "arguments": {"path": "pkg/\u0000main.py"}}})  # fmt: skip
        for id in (2, 3, 4):
            assert "error" in server.answer(id), id
        nul = server.answer(5)["result"]
        assert nul["isError"] and '"validation"' in nul["content"][0]["text"]
        server.send({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "read_file", "arguments": {"path": "pkg/main.py"}}})  # fmt: skip
        assert "def total" in server.answer(6)["result"]["structuredContent"]["content"]
        assert server.proc.poll() is None


async def test_the_index_sees_files_the_client_changed_on_disk(root: Path) -> None:
    async with stdio_session(root) as session:
        before = await session.call_tool("find_symbol_definition", {"symbol": "hexagon"})
        (root / "pkg" / "hexagon.py").write_text("def hexagon(side: float) -> float:\n    return side * 6\n")
        await asyncio.sleep(1.1)  # freshness.REFRESH_S: a refresh at most once a second
        after = await session.call_tool("find_symbol_definition", {"symbol": "hexagon"})
    assert text(before)["locations"] == []
    assert [(loc["path"], loc["line"]) for loc in text(after)["locations"]] == [("pkg/hexagon.py", 0)]
