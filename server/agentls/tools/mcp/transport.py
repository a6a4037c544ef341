"""How agentls reaches one MCP server: the official SDK's transports, chosen by its
`mcpServers` entry, with what agentls adds around them.

- stdio (`command`): the SDK's `stdio_client` starts the command in its own process group
  with the SDK's small inherited environment plus the entry's `env` and a process-tree
  marker (`process_tree.MARKER_VAR`), in the entry's `cwd` (relative to the workspace
  root; default: the root). Its stderr goes to a pipe whose tail is kept (`StderrTail`), so
  a server that fails can say why.
- `url`: streamable HTTP through an httpx2 client carrying the entry's `headers`;
  `type: "sse"` takes the SDK's SSE client instead.

`Watched` wraps the read stream so the owner of the session learns at once when the
server closed the connection (it exited, or the HTTP stream ended), whether or not a call
was in flight; `Given` hands already-open streams to the SDK's `Client`.
Must not know: tools, the registry, the agent, any front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio

from agentls.settings import McpServerConfig
from agentls.tools.process_tree import MARKER_VAR

#: How much of a server's stderr is kept (its last bytes).
STDERR_TAIL_BYTES = 8192
#: httpx2 timeouts for an HTTP server: connect/write/pool, and reading a held stream.
HTTP_TIMEOUT_S = 30.0
HTTP_READ_TIMEOUT_S = 300.0


class StderrTail(asyncio.Protocol):
    """The last STDERR_TAIL_BYTES a server wrote to its stderr pipe."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed = asyncio.Event()
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self.data += data
        if len(self.data) > STDERR_TAIL_BYTES:
            del self.data[: len(self.data) - STDERR_TAIL_BYTES]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def close(self) -> None:
        """Stop reading (a process that escaped the kill may hold the pipe open)."""
        if self._transport is not None:
            self._transport.close()

    def text(self, limit: int = 600) -> str:
        """The last `limit` characters, each line's runs of blanks squeezed, empty lines dropped."""
        lines = (
            " ".join(line.split()) for line in self.data.decode("utf-8", "replace").splitlines()
        )
        return "\n".join(line for line in lines if line)[-limit:]


def working_dir(config: McpServerConfig, root: Path) -> Path:
    """Where a stdio server runs: its `cwd` (relative to the workspace root), else the root."""
    cwd = root if config.cwd is None else (root / config.cwd)
    if not cwd.is_dir():
        raise NotADirectoryError(f"its cwd {str(cwd)!r} is not a directory")
    return cwd


@contextlib.asynccontextmanager
async def open_streams(
    config: McpServerConfig, root: Path, *, marker: str, stderr: StderrTail
) -> AsyncIterator[Any]:
    """The (read, write) streams of a connection to the server `config` names."""
    if config.command is not None:
        async with _stdio(config, root, marker, stderr) as streams:
            yield streams
        return
    assert config.url is not None
    if config.type == "sse":
        from mcp.client.sse import sse_client

        async with sse_client(config.url, headers=dict(config.headers)) as streams:
            yield streams
        return
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(HTTP_TIMEOUT_S, read=HTTP_READ_TIMEOUT_S)
    async with (
        httpx2.AsyncClient(headers=dict(config.headers), timeout=timeout) as http,
        streamable_http_client(config.url, http_client=http) as streams,
    ):
        yield streams


@contextlib.asynccontextmanager
async def _stdio(
    config: McpServerConfig, root: Path, marker: str, stderr: StderrTail
) -> AsyncIterator[Any]:
    from mcp.client.stdio import StdioServerParameters, stdio_client

    assert config.command is not None
    params = StdioServerParameters(
        command=config.command,
        args=list(config.args),
        env={**config.env, MARKER_VAR: marker},
        cwd=working_dir(config, root),
    )
    read_fd, write_fd = os.pipe()
    loop = asyncio.get_running_loop()
    reader = os.fdopen(read_fd, "rb", buffering=0)
    try:
        await loop.connect_read_pipe(lambda: stderr, reader)
    except BaseException:
        reader.close()
        os.close(write_fd)
        raise
    errlog = os.fdopen(write_fd, "w")
    try:
        async with stdio_client(params, errlog=errlog) as streams:
            errlog.close()  # the server holds its own copy: EOF comes when it exits
            yield streams
    finally:
        errlog.close()


class Watched:
    """A read stream that calls `on_end` once the server closes the connection."""

    def __init__(self, inner: Any, on_end: Callable[[], None]) -> None:
        self._inner = inner
        self._on_end = on_end

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._on_end()
            raise

    def __aiter__(self) -> Watched:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self._inner.__anext__()
        except (StopAsyncIteration, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._on_end()
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Watched:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:  # `last_context`, read by the SDK's dispatcher
        return getattr(self._inner, name)


class Given:
    """A transport whose streams are open already (their owner closes them)."""

    def __init__(self, streams: Any) -> None:
        self._streams = streams

    async def __aenter__(self) -> Any:
        return self._streams

    async def __aexit__(self, *exc: Any) -> None:
        return None
