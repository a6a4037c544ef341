"""Long-term memory: relevant memories as a message, and what the run learns saved back.

On every turn it offers the memories `MemoryStore.search(goal)` found (searched once per
run) as a system message. After each task's `finish` it saves the goal, the task and the
result (tagged `task-result`), so the last task's entry is also the run's final summary.
It saves only when the run may write files (the store lives in the workspace, and
`save_memory` needs the same permission). A failing store is logged, never fatal.
Must not know: how the store searches, the loop's internals, models, LSP.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator

from agentls.agent.actions import ActionResult
from agentls.agent.context import RunContext
from agentls.agent.protocols import AfterExecute, MessageProvider
from agentls.llm.base import Message
from agentls.tools.knowledge.memory import MemoryHit
from agentls.tools.knowledge.stores import memory_store
from agentls.tools.permissions import Permission

log = logging.getLogger(__name__)
_MEMORY_CHARS = 600


class MemoryComponent(MessageProvider, AfterExecute):
    def __init__(self, run: RunContext, limit: int = 5) -> None:
        super().__init__()
        self.run = run
        self.limit = limit
        self._hits: list[MemoryHit] | None = None

    def _search(self) -> list[MemoryHit]:
        if self._hits is None:
            try:
                self._hits = memory_store(self.run.tools).search(self.run.goal, self.limit)
            except (sqlite3.Error, OSError) as exc:
                log.warning("memory search failed: %s", exc)
                self._hits = []
        return self._hits

    def get_messages(self) -> Iterator[Message]:
        hits = self._search()
        if not hits:
            return
        lines = []
        for hit in hits:
            text = " ".join(hit["text"].split())[:_MEMORY_CHARS]
            tags = f" [{', '.join(hit['tags'])}]" if hit["tags"] else ""
            lines.append(f"- {text}{tags}")
        yield {
            "role": "system",
            "content": "Memories from earlier work in this workspace (may be outdated):\n"
            + "\n".join(lines),
        }

    def after_execute(self, result: ActionResult) -> None:
        if result.finished is None or self.run.task is None:
            return
        if Permission.FILESYSTEM_WRITE not in self.run.tools.permissions:
            return
        text = (
            f"Goal: {self.run.goal}\nTask: {self.run.task.title}\nResult: {result.finished.summary}"
        )
        try:
            memory_store(self.run.tools).add(
                text, ["task-result"], run_id=self.run.run_id, source="agent"
            )
        except (sqlite3.Error, OSError) as exc:
            log.warning("could not save a memory: %s", exc)
