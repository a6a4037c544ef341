"""Starting `agentls mcp` as a subprocess and talking to it with real MCP clients: the
official Python SDK's `ClientSession` over its stdio and streamable-HTTP clients, and raw
JSON lines for input no client would send. `workspace(tmp_path)` writes the small project
the tests ask about."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

SHAPES = '''"""Shapes."""


class Circle:
    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return 3.14159 * self.radius**2


def unit_circle() -> Circle:
    return Circle(1.0)
'''
MAIN = '''from pkg.shapes import Circle, unit_circle


def total(circles: list[Circle]) -> float:
    return sum(c.area() for c in circles) + unit_circle().area()
'''
ENV = {"PYTHONPATH": os.pathsep.join(sys.path)}
#: A request unanswered this long fails the test (a call waiting for a decision would hang).
TIMEOUT_S = 30.0


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shapes.py").write_text(SHAPES)
    (root / "pkg" / "main.py").write_text(MAIN)
    (tmp_path / "outside.txt").write_text("a secret beside the workspace\n")
    return root


def command(root: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "agentls.cli", "mcp", "--workspace", str(root), *flags]


@contextlib.asynccontextmanager
async def stdio_session(root: Path, *flags: str) -> AsyncIterator[ClientSession]:
    """An initialized client session with `agentls mcp FLAGS` on stdio."""
    cmd = command(root, *flags)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=ENV, cwd=str(root))
    async with stdio_client(params) as (read, write), ClientSession(read, write, TIMEOUT_S) as session:
        await session.initialize()
        yield session


@contextlib.asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read, write), ClientSession(read, write, TIMEOUT_S) as session:
        await session.initialize()
        yield session


def text(result: Any) -> Any:
    """The JSON in a tool result's first text block."""
    return json.loads(result.content[0].text)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Process:
    """`agentls mcp` as a subprocess whose stdout and stderr lines are read as they come."""

    def __init__(self, cmd: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            cmd, cwd=cwd, env={**os.environ, **ENV}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )  # fmt: skip
        self.stdout: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.stdout.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr.append), daemon=True).start()

    @staticmethod
    def _pump(stream: Any, put: Any) -> None:
        for line in stream:
            put(line)

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.proc.stdin.flush()

    def answer(self, id: int, timeout: float = 20) -> dict[str, Any]:
        """The response to request `id` (other lines skipped)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.stdout.get(timeout=left)
            except queue.Empty:
                break
            message = json.loads(line)
            if message.get("id") == id:
                return message
        raise AssertionError(f"no answer to {id} in {timeout} s; stderr: {''.join(self.stderr)[-2000:]}")

    def wait_stderr(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.stderr):
                if found := re.search(pattern, line):
                    return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"{pattern!r} not on stderr (exit {self.proc.poll()}): {''.join(self.stderr)[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@contextlib.contextmanager
def running(root: Path, *flags: str) -> Iterator[Process]:
    process = Process(command(root, *flags), root)
    try:
        yield process
    finally:
        process.stop()


def listening(port: int) -> list[str]:
    """The local addresses (hex, as /proc/net shows them) of the sockets listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(table) as lines:
            for line in list(lines)[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found
