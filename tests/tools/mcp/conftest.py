"""Fixtures for the MCP client tests (the servers they run: mcp_servers.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_servers import PYSERVER, free_port

from agentls.settings import McpServerConfig
from agentls.tools.mcp import McpProvider

MakeProvider = Callable[..., McpProvider]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "README.md").write_text("# demo\n")
    return root


@pytest.fixture
def make_provider(ws: Path) -> Iterator[MakeProvider]:
    made: list[McpProvider] = []

    def make(servers: dict[str, McpServerConfig], **kwargs: Any) -> McpProvider:
        provider = McpProvider(ws, servers, **kwargs)
        made.append(provider)
        return provider

    yield make
    for provider in made:
        provider.close()


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """pyserver.py over streamable HTTP on 127.0.0.1 (a free port); its /mcp URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(PYSERVER), "http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("the HTTP MCP server did not start")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(10)
