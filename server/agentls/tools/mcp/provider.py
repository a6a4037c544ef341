"""The MCP servers of one workspace (its `mcpServers` setting) as a source of tools for its
registry: `tools()` lists every server's tools, `tool(name)` finds one, each as an
McpTool run through the executor.

Servers start on first use — a listing or a call — all on one event loop (loop.py): a
listing starts the servers not yet started and waits for them, bounded by their start
timeout; a caller that is itself an event loop never waits (the servers start in the
background and are listed as starting), so a front end awaits `prepare()` before listing
on its loop. A server that failed, or is starting, is one disabled entry `mcp__<server>`
with the reason; its tools are absent. A crashed server's tools stay listed: the next call
starts it again. `configure()` swaps the set of servers (an entry that did not change keeps
its session; the others are stopped); `close()` stops every server and the loop.
Providers still open when the interpreter exits are closed then.
Must not know: the registry's internals, the agent, any front end.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentls.settings import McpServerConfig
from agentls.tools.base import CancelEvent, Tool
from agentls.tools.mcp.connection import START_TIMEOUT_S, STOP_TIMEOUT_S, McpConnection
from agentls.tools.mcp.loop import LoopThread
from agentls.tools.mcp.tool import PREFIX, ServerEntry, entry_class, tool_class
from agentls.tools.permissions import Permission

log = logging.getLogger(__name__)

#: Waiting for the servers to start is bounded by their start timeout plus this.
MARGIN_S = 5.0

_OPEN: weakref.WeakSet[McpProvider] = weakref.WeakSet()


class McpProvider:
    """The MCP servers of a workspace whose root is `root` (a stdio server's default cwd)."""

    prefix = PREFIX

    def __init__(
        self,
        root: Path,
        servers: Mapping[str, McpServerConfig] | None = None,
        *,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        self.root = root
        self.start_timeout_s = start_timeout_s
        self._loop = LoopThread(f"agentls-mcp-{root.name}")
        self._lock = threading.Lock()
        self._connections: dict[str, McpConnection] = {}
        self._built: dict[str, tuple[McpConnection, int, list[Tool]]] = {}
        self._entries: dict[str, tuple[McpConnection, ServerEntry]] = {}
        self._stopping: list[concurrent.futures.Future[None]] = []
        self.configure(servers or {})
        _OPEN.add(self)

    @property
    def servers(self) -> dict[str, McpServerConfig]:
        return {name: conn.config for name, conn in self._connections.items()}

    def connection(self, server: str) -> McpConnection | None:
        return self._connections.get(server)

    def configure(self, servers: Mapping[str, McpServerConfig]) -> None:
        """Use `servers` from now on: an entry that did not change keeps its session, a
        removed or changed one is stopped (in the background), a new one starts on first use."""
        with self._lock:
            old = self._connections
            new: dict[str, McpConnection] = {}
            for name, config in servers.items():
                kept = old.get(name)
                same = kept is not None and kept.config == config and kept.state != "stopped"
                new[name] = (
                    kept
                    if same and kept is not None
                    else McpConnection(name, config, self.root, self.start_timeout_s)
                )
            gone = [conn for name, conn in old.items() if new.get(name) is not conn]
            self._connections = new
        self._stopping = [f for f in self._stopping if not f.done()]
        for conn in gone:
            if conn.state != "idle" and not self._loop.closed:
                self._stopping.append(self._loop.submit(conn.stop()))

    # --- the registry's source ------------------------------------------------------------
    def tools(self) -> list[Tool]:
        """Every server's tools, and an entry for each server without them (see above)."""
        connections = list(self._connections.values())
        self._start([c for c in connections if c.state == "idle"])
        out: list[Tool] = []
        seen: set[str] = set()
        for conn in connections:
            for tool in self._tools_of(conn):
                if tool.name in seen:
                    log.warning(
                        "MCP server %s: a tool named %s is listed already; skipped",
                        conn.name,
                        tool.name,
                    )
                    continue
                seen.add(tool.name)
                out.append(tool)
        return out

    def tool(self, name: str) -> Tool | None:
        """The tool `name` (its server started first if it never was), or None."""
        owners = [
            c
            for c in self._connections.values()
            if name == f"{PREFIX}{c.name}" or name.startswith(f"{PREFIX}{c.name}__")
        ]
        for conn in sorted(owners, key=lambda c: -len(c.name)):
            if conn.state == "idle":
                self._start([conn])
            found = next((t for t in self._tools_of(conn) if t.name == name), None)
            if found is not None:
                return found
        return None

    async def prepare(self, cancel: CancelEvent | None = None) -> None:
        """Start the servers not started yet and wait until each has its tools or failed
        (bounded; `cancel` ends the wait early). For callers on an event loop."""
        pending = [c for c in self._connections.values() if c.state in ("idle", "starting")]
        if not pending:
            return
        started = asyncio.wrap_future(self._loop.submit(_start_all(pending)))
        waiters: set[asyncio.Future[Any]] = {started}
        unsubscribe = None
        if cancel is not None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()

            def wake() -> None:
                loop.call_soon_threadsafe(stop.set)

            unsubscribe = cancel.subscribe(wake)
            waiters.add(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(
                waiters,
                timeout=self.start_timeout_s + MARGIN_S,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            if unsubscribe is not None:
                unsubscribe()
            for waiter in waiters - {started}:
                waiter.cancel()

    def status(self) -> dict[str, dict[str, Any]]:
        """Each server's state, reason, process id and tool count (for logs and tests)."""
        return {
            name: {"state": c.state, "reason": c.reason, "pid": c.pid, "tools": len(c.tools)}
            for name, c in self._connections.items()
        }

    def close(self) -> None:
        """Stop every server (bounded) and the loop. Idempotent."""
        with self._lock:
            connections, self._connections = list(self._connections.values()), {}
        if self._loop.started and not self._loop.closed:
            stops = [self._loop.submit(c.stop()) for c in connections if c.state != "idle"]
            concurrent.futures.wait([*stops, *self._stopping], timeout=STOP_TIMEOUT_S + MARGIN_S)
        self._loop.close()
        _OPEN.discard(self)

    # --- inside -------------------------------------------------------------------------------
    def _start(self, connections: list[McpConnection]) -> None:
        """Start `connections`; wait (bounded) unless the caller is an event loop."""
        if not connections or self._loop.closed:
            return
        future = self._loop.submit(_start_all(connections))
        if _on_event_loop():
            return  # never hold a loop: they are listed as starting until they are up
        try:
            future.result(self.start_timeout_s + MARGIN_S)
        except concurrent.futures.TimeoutError:
            log.warning(
                "MCP servers %s: still starting after %g s",
                [c.name for c in connections],
                self.start_timeout_s + MARGIN_S,
            )

    def _tools_of(self, conn: McpConnection) -> list[Tool]:
        if conn.usable and conn.tools:
            built = self._built.get(conn.name)
            if built is None or built[0] is not conn or built[1] != conn.generation:
                flags = _flags(conn.config)
                tools: list[Tool] = [
                    tool_class(conn.name, spec, flags)(conn, self._loop.submit)
                    for spec in conn.tools
                ]
                built = self._built[conn.name] = (conn, conn.generation, tools)
            return built[2]
        entry = self._entries.get(conn.name)
        if entry is None or entry[0] is not conn:
            entry = self._entries[conn.name] = (
                conn,
                entry_class(conn.name, _flags(conn.config))(conn),
            )
        return [entry[1]]


async def _start_all(connections: list[McpConnection]) -> None:
    await asyncio.gather(*(c.start() for c in connections), return_exceptions=True)


def _flags(config: McpServerConfig) -> frozenset[Permission]:
    return frozenset(Permission(p) for p in config.permissions)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@atexit.register
def _close_open_providers() -> None:
    for provider in list(_OPEN):
        try:
            provider.close()
        except Exception:  # at exit: nothing more to do about it
            log.debug("closing an MCP provider at exit failed", exc_info=True)
