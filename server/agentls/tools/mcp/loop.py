"""The event loop the MCP sessions of one provider live on: a daemon thread running an
asyncio loop, started on first use. Tool calls come from the executor's worker threads,
listings from wherever the registry is read; both hand their coroutine over with `submit`
and wait on the returned future, so a session is only ever touched on its own loop.
Must not know: MCP, tools.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

JOIN_S = 5.0


class LoopThread:
    def __init__(self, name: str) -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.closed = False

    @property
    def started(self) -> bool:
        return self._loop is not None

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run `coro` on the loop (started now if need be)."""
        with self._lock:
            if self.closed:
                coro.close()
                raise RuntimeError(f"{self._name} is closed")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name=self._name, daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def on_loop(self) -> bool:
        """Whether the caller runs on this loop's thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    def close(self) -> None:
        """Stop the loop and its thread (what runs on it should have ended first)."""
        with self._lock:
            self.closed = True
            loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        with contextlib.suppress(RuntimeError):  # closed already
            loop.call_soon_threadsafe(loop.stop)
        thread.join(JOIN_S)
        if not thread.is_alive():
            loop.close()
