"""One MCP server's session: the official SDK's `Client`, kept open by an owner task on the
provider's event loop, and the calls made through it.

States: `idle` (not started) → `starting` → `ready` (its tool list known) → `crashed` (it
closed the connection: it exited, or the HTTP stream ended) or `stopped` (closed by us);
a start that fails or does not finish within `start_timeout_s` → `failed`, with the reason
(the error and the tail of the server's stderr), which stays until the servers are
configured again. A call to a crashed server starts it again first; a call in flight when
it crashes fails with a `runtime` error naming the crash.

The owner task enters the transport and the `Client` inside an anyio cancel scope and
waits there until the connection ends or `stop()` cancels the scope, so the SDK's shutdown
(close stdin, wait, terminate the process group — each step bounded) always runs in the
task that entered it; whatever the process tree left running is then killed by its
marker (`process_tree.kill_tree`). Every coroutine here runs on the provider's loop.
Must not know: the registry, the agent, any front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from agentls.settings import McpServerConfig
from agentls.tools.base import ToolError
from agentls.tools.mcp.transport import Given, StderrTail, Watched, open_streams
from agentls.tools.process_tree import kill_tree, marked_children, tree_pids

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)

START_TIMEOUT_S = 20.0
#: How long stopping a server may take: the SDK's own bounded shutdown (~6 s at worst).
STOP_TIMEOUT_S = 10.0
#: After a call saw the connection close, how long to wait for the owner to wind it down.
SETTLE_S = 3.0
#: At most this many pages of `tools/list`.
MAX_PAGES = 100


class McpConnection:
    def __init__(
        self,
        name: str,
        config: McpServerConfig,
        root: Path,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        self.name = name
        self.config = config
        self.root = root
        self.start_timeout_s = start_timeout_s
        self.state = "idle"
        self.reason: str | None = None
        self.tools: list[Any] = []  # mcp_types.Tool, from the last successful start
        self.generation = 0  # counts successful starts
        self.pid: int | None = None  # a stdio server's process, while it runs
        self._marker = uuid.uuid4().hex  # a new one for each start (its process tree's)
        self._lost: asyncio.Event | None = None  # set: the session is over, the owner ends it
        self._client: Client | None = None
        self._owner: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[None] | None = None
        self._scope: anyio.CancelScope | None = None
        self._owning = False  # the owner task has taken its first step

    @property
    def usable(self) -> bool:
        """Its tools can be called (a crashed server is started again by the call)."""
        return self.state in ("ready", "crashed")

    # --- starting and stopping ---------------------------------------------------------
    async def start(self) -> None:
        """Start the server unless it runs, failed or was stopped; wait (bounded) until its
        tools are known or the start failed."""
        if self.state in ("idle", "crashed"):
            self.state, self.reason = "starting", None
            self._ready = asyncio.get_running_loop().create_future()
            self._owner = asyncio.create_task(self._own(self._ready), name=f"mcp-{self.name}")
        if self.state != "starting" or self._ready is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), self.start_timeout_s)
        except TimeoutError:
            if self.state == "starting":
                self._fail(f"it did not answer within {self.start_timeout_s:g} s")
                await self._wind_down()

    async def stop(self) -> None:
        """Close the session and end the server's process tree (bounded)."""
        self.state = "stopped"
        await self._wind_down()

    async def _wind_down(self) -> None:
        owner = self._owner
        if self._scope is not None:
            self._scope.cancel()
        elif owner is not None and not self._owning:
            owner.cancel()  # it has not entered anything yet
        if owner is not None and not owner.done():
            await asyncio.wait({owner}, timeout=STOP_TIMEOUT_S)
        if self._ready is not None and not self._ready.done():
            self._ready.set_result(None)  # a waiter of a start that never ran
        await asyncio.to_thread(self._kill_leftovers)

    def _kill_leftovers(self, marker: str | None = None) -> None:
        marker = marker or self._marker
        if self.config.command is not None and tree_pids(-1, marker):
            stopped = kill_tree(-1, marker)
            log.info("MCP server %s: %d leftover process(es) stopped", self.name, stopped)

    def _fail(self, why: str, stderr: StderrTail | None = None) -> None:
        tail = stderr.text() if stderr is not None else ""
        self.state = "failed"
        self.reason = f"the MCP server {self.name!r} could not start: {why}" + (
            f"; its stderr ends: {tail}" if tail else ""
        )
        log.warning("%s", self.reason)

    async def _own(self, ready: asyncio.Future[None]) -> None:
        """The owner task: open the session, list the tools, hold it until it ends."""
        from mcp import Client
        from mcp_types import Implementation

        from agentls import __version__

        self._owning = True
        self._marker = marker = uuid.uuid4().hex
        stderr = StderrTail()
        self._lost = lost = asyncio.Event()
        error: BaseException | None = None
        try:
            with anyio.CancelScope() as scope:
                self._scope = scope
                async with contextlib.AsyncExitStack() as stack:
                    streams = await stack.enter_async_context(
                        open_streams(self.config, self.root, marker=marker, stderr=stderr)
                    )
                    self.pid = self._leader()
                    read, write = streams
                    client = Client(
                        Given((Watched(read, lost.set), write)),  # type: ignore[arg-type]
                        client_info=Implementation(name="agentls", version=__version__),
                        cache=None,
                    )
                    await stack.enter_async_context(client)
                    self.tools = await _list_tools(client)
                    self._client, self.generation = client, self.generation + 1
                    if self.state == "starting":
                        self.state = "ready"
                    if not ready.done():
                        ready.set_result(None)
                    await lost.wait()
        except Exception as exc:  # reported below; the server never takes agentls down
            error = exc
        finally:
            self._scope, self._client, self.pid = None, None, None
            await asyncio.to_thread(self._kill_leftovers, marker)  # what the server left running
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stderr.closed.wait(), 1.0)
            stderr.close()
            self._owning = False
            self._settle(error, stderr)
            if not ready.done():
                ready.set_result(None)

    def _settle(self, error: BaseException | None, stderr: StderrTail) -> None:
        """The state once the owner task ended."""
        if self.state == "starting":
            if error is not None:
                self._fail(describe(error), stderr)
            else:
                self._fail("it closed the connection while starting", stderr)
        elif self.state == "ready":
            tail = stderr.text()
            why = describe(error) if error is not None else "it closed the connection"
            self.state = "crashed"
            self.reason = f"the MCP server {self.name!r} stopped: {why}" + (
                f"; its stderr ends: {tail}" if tail else ""
            )
            log.warning("%s (the next call starts it again)", self.reason)
        elif error is not None:
            log.info("MCP server %s ended (%s): %s", self.name, self.state, describe(error))

    def _leader(self) -> int | None:
        """The pid of the stdio server's process (the marked process whose parent is us)."""
        if self.config.command is None:
            return None
        return next(iter(marked_children(self._marker)), None)

    # --- calls ----------------------------------------------------------------------------
    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        """Call `tool`; its `CallToolResult`. ToolError when the server cannot be reached or
        fails the call."""
        await self.start()  # a crashed server again; waits for one starting
        client = self._client
        if self.state != "ready" or client is None:
            raise ToolError(
                "runtime", self.reason or f"the MCP server {self.name!r} is {self.state}"
            )
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        try:
            return await client.call_tool(tool, arguments)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise ToolError(
                    "runtime", f"the MCP server {self.name!r} refused the call: {exc}"
                ) from None
        except Exception as exc:  # a broken stream, a malformed answer
            from pydantic import ValidationError

            if not isinstance(exc, ValidationError) and self._lost is not None:
                self._lost.set()  # the session is broken: the next call opens a new one
            raise ToolError(
                "runtime", f"the MCP server {self.name!r} failed the call: {describe(exc)}"
            ) from None
        if self._owner is not None:  # the connection closed during the call: say why
            await asyncio.wait({self._owner}, timeout=SETTLE_S)
        raise ToolError(
            "runtime",
            f"{self.reason or f'the MCP server {self.name!r} closed the connection'} "
            "(during this call; the next call starts it again)",
        )


async def _list_tools(client: Client) -> list[Any]:
    tools: list[Any] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def describe(exc: BaseException) -> str:
    """One line for an error, the first leaf of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"{exc.filename!r} was not found ({exc.strerror})"
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    if isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED:
        return "it closed the connection (it exited, or the server hung up)"
    text = str(exc) or type(exc).__name__
    return text if type(exc).__name__ in text else f"{type(exc).__name__}: {text}"
