"""The MCP servers the MCP client tests run — real ones only: the reference servers from npm
(`tests/clients`: server-everything, server-filesystem; installed by `npm ci` there) and
`pyserver.py`, written here with the official SDK's MCPServer — and helpers to watch
their processes. (This folder is not a package: its tests import this module by its name.)"""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path
from typing import Any

from tests.clients import bin

from agentls.settings import McpServerConfig

PYSERVER = Path(__file__).with_name("pyserver.py")


def everything() -> McpServerConfig:
    return McpServerConfig(command=str(bin("mcp-server-everything")), args=("stdio",))


def filesystem(allowed: Path, **entry: Any) -> McpServerConfig:
    return McpServerConfig(command=str(bin("mcp-server-filesystem")), args=(str(allowed),), **entry)


def pyserver(**entry: Any) -> McpServerConfig:
    return McpServerConfig(command=sys.executable, args=(str(PYSERVER),), **entry)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
