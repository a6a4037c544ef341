"""Keeping the workspace index current with the disk between MCP calls.

An MCP client changes files with its own tools, and nothing tells the server (no editor
sends didChange here). So before a call of a tool that answers from the index (category
`code`), the index picks up what changed on disk since it was built or last refreshed —
at most once per REFRESH_S, so a burst of calls walks the workspace once. A refresh is a
walk and a stat of every file: 15–40 ms on sympy's 1.5k files, ~2 ms on agentls's own 257
(README: the MCP benchmark). Before the first build ends there is nothing to refresh: the
build reads the disk itself. Must not know: MCP, transports, any particular tool.
"""

from __future__ import annotations

import logging
import threading
import time

from agentls.agent.launch import Workbench
from agentls.tools.base import Tool

log = logging.getLogger(__name__)

#: Tool categories whose answers come from the index.
INDEXED_CATEGORIES = frozenset({"code"})
#: A refresh at most this often (seconds).
REFRESH_S = 1.0


class DiskRefresh:
    def __init__(self, bench: Workbench, every_s: float = REFRESH_S) -> None:
        self.bench = bench
        self.every_s = every_s
        self._lock = threading.Lock()
        self._last = 0.0

    def due(self, tool: Tool | None) -> bool:
        """Whether a call of `tool` should refresh the index first: it reads the index, the
        first build is over, and the last refresh is older than `every_s`. Cheap."""
        index, ready = self.bench.index, self.bench.ready
        if tool is None or tool.category not in INDEXED_CATEGORIES or index is None:
            return False
        if ready is not None and not ready.is_set():
            return False
        return time.monotonic() - self._last >= self.every_s

    def refresh(self) -> None:
        """Pick up what changed on disk. Blocking: run it off the event loop."""
        with self._lock:  # concurrent calls share one refresh
            if time.monotonic() - self._last < self.every_s:
                return
            try:
                changed = self.bench.index.refresh() if self.bench.index is not None else []
            except Exception:  # a stale answer beats no answer
                log.exception("refreshing the index from disk failed")
                changed = []
            self._last = time.monotonic()
        if changed:
            log.info("index: %d file(s) changed on disk since the last call", len(changed))
