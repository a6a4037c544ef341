"""What the editor sees of one run: `agent/event` notifications and work-done progress.

Every RunEvent becomes `agent/event {runId, kind, ...}` (its `to_dict()`). Progress:
a server-created token (`window/workDoneProgress/create`, when the client supports it)
or the `workDoneToken` the client sent with `agent/run`; `begin` carries the goal and is
cancellable (the client's cancel cancels the run), `report` names the running task and
the tool of each step, `end` gives the final status. Must not know: the agent loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from agentls.agent.events import RunEvent
from agentls.agent.run import RunState

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer

log = logging.getLogger(__name__)

EVENT_NOTIFICATION = "agent/event"
CREATE_TIMEOUT_S = 10.0  # a client that never answers the create gets no progress
_TITLE_CHARS = 60
_MESSAGE_CHARS = 200


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RunReporter:
    def __init__(
        self, server: AgentLanguageServer, run_id: str, goal: str, token: Any = None
    ) -> None:
        self.server = server
        self.run_id = run_id
        self.goal = goal
        self.token: str | int | None = token if isinstance(token, str | int) else None
        self._tasks: dict[int, str] = {}

    async def begin(self, on_cancel: Callable[[], None]) -> None:
        """Start the progress (the client may refuse it: the run goes on without)."""
        caps = self.server.client_capabilities
        if self.token is None and caps and caps.window and caps.window.work_done_progress:
            token = f"agentls-{self.run_id}"
            try:
                await asyncio.wait_for(
                    self.server.work_done_progress.create_async(token), CREATE_TIMEOUT_S
                )
                self.token = token
            except Exception as exc:
                log.info("progress for run %s refused: %s", self.run_id, exc)
        if self.token is None:
            return
        title = f"agentls: {_short(self.goal, _TITLE_CHARS)}"
        value = lsp.WorkDoneProgressBegin(
            title=title, message=_short(self.goal, _MESSAGE_CHARS), cancellable=True
        )
        self.server.work_done_progress.begin(self.token, value)
        cancelled: Future[Any] | None = self.server.work_done_progress.tokens.get(self.token)
        if cancelled is not None:
            cancelled.add_done_callback(lambda f: on_cancel() if f.cancelled() else None)

    def event(self, event: RunEvent) -> None:
        """The Agent's on_event (called on the loop's thread)."""
        self.server.protocol.notify(EVENT_NOTIFICATION, event.to_dict())
        message = self._progress_message(event)
        if message and self.token is not None:
            self.server.work_done_progress.report(
                self.token, lsp.WorkDoneProgressReport(message=message)
            )

    def _progress_message(self, event: RunEvent) -> str | None:
        data = event.data
        if event.kind == "task":
            index, title = data.get("index"), str(data.get("title", ""))
            if isinstance(index, int):
                self._tasks[index] = title
            if data.get("status") == "running" and isinstance(index, int):
                return _short(f"task {index + 1}/{len(self._tasks)}: {title}", _MESSAGE_CHARS)
        elif event.kind == "tool_call":
            return f"step: {data.get('name')}"
        elif event.kind == "status" and data.get("notice"):  # said once, e.g. a protocol change
            return _short(str(data["notice"]), _MESSAGE_CHARS)
        elif event.kind == "status" and data.get("phase") == "planning":
            return "planning…"
        return None

    def end(self, state: RunState) -> None:
        if self.token is None:
            return
        detail = state.summary or state.error or ""
        message = state.status + (f": {_short(detail, _MESSAGE_CHARS)}" if detail else "")
        self.server.work_done_progress.end(self.token, lsp.WorkDoneProgressEnd(message=message))
        self.server.work_done_progress.tokens.pop(self.token, None)
