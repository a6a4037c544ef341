"""`agentls mcp` against the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, the
official TypeScript SDK's client): `tools/list` and `tools/call` over stdio and over
streamable HTTP; the TypeScript client checks each structured result against the tool's
`outputSchema`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.clients import bin, node
from tests.mcp.harness import ENV, command, free_port, running, workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return workspace(tmp_path)


def inspect(target: list[str], *args: str) -> dict:
    """Run the inspector CLI on `target` (a command line or a URL) and parse its JSON."""
    node()
    cli = bin("mcp-inspector-cli")
    # The CLI finds its own package.json from the working directory (`../package.json`):
    # run it from its build folder, where that holds.
    build = cli.resolve().parent
    proc = subprocess.run(
        [str(cli), "--cli", *target, *args], cwd=build, env={**os.environ, **ENV},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_inspector_lists_and_calls_over_stdio(root: Path) -> None:
    listed = inspect(command(root), "--method", "tools/list")
    names = {t["name"] for t in listed["tools"]}
    assert {"find_symbol_definition", "read_file"} <= names and "write_file" not in names
    called = inspect(command(root), "--method", "tools/call", "--tool-name", "find_symbol_definition",
                     "--tool-arg", "symbol=Circle", "path=pkg/main.py", "line=3", "character=24")  # fmt: skip
    assert called["isError"] is False
    [where] = called["structuredContent"]["locations"]
    assert (where["path"], where["line"], where["character"]) == ("pkg/shapes.py", 3, 6)
    refused = inspect(command(root), "--method", "tools/call", "--tool-name", "read_file",
                      "--tool-arg", "path=/etc/passwd")  # fmt: skip
    assert refused["isError"] is True
    assert json.loads(refused["content"][0]["text"])["type"] == "permission"


def test_inspector_lists_and_calls_over_http(root: Path) -> None:
    port = free_port()
    with running(root, "--http", str(port)) as server:
        url = server.wait_stderr(r"(http://\S+/mcp)").group(1)
        listed = inspect([url], "--transport", "http", "--method", "tools/list")
        called = inspect([url], "--transport", "http", "--method", "tools/call", "--tool-name", "read_file",
                         "--tool-arg", "path=pkg/shapes.py", "start_line=0", "end_line=1")  # fmt: skip
    assert "find_references" in {t["name"] for t in listed["tools"]}
    assert called["isError"] is False
    assert called["structuredContent"]["content"] == '"""Shapes."""\n'
