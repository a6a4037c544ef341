"""The agent runs of the server: `agent/run`, `agent/status`, `agent/cancel` (and the code
actions' command) start, read and stop them here.

The RunManager holds the ProposalBridge (proposals ↔ editor), the Toolbox (the workbench
of each project) and the ModelCache. A run is started as every front end starts one
(`agent.launch.start_run`: its id, settings, trace, Agent and task, waiting for the
project's first index); this module adds the editor's side: RunReporter turns its events
into `agent/event` notifications and work-done progress, a run whose proposals are applied
at once is not presented, every run belongs to a session of its folder (DESIGN §9: the one
`sessionId` names, else a new one; one run at a time in a session; `agent/sessions` lists
them), approval `plan` asks the client `agent/plan` (plans.py), and its trace (`.agentls/runs/<runId>.json`) is what
`agent/undo` reads (so a run can be undone after a restart). Bad requests raise
`AgentRequestError` (a JSON-RPC -32602 naming the field), also when `start` is called from
a command. `shutdown()` cancels every run and tool call: their worker threads must not
keep the process alive after `exit`. Must not know: the loop's internals, tools'
internals, how params arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentls.agent.launch import RunHandle, RunRequest, RunRequestError, start_run
from agentls.agent.run import EditorContext, RunState
from agentls.agent.sessions import Session, SessionError, SessionStore
from agentls.lsp.models import ModelCache
from agentls.lsp.params import AgentRequestError, request_failed
from agentls.lsp.plans import review_plan
from agentls.lsp.proposals import ProposalBridge
from agentls.lsp.run_reporter import RunReporter
from agentls.lsp.toolbox import Toolbox
from agentls.tools.run_trace import trace_path
from agentls.tools.undo import UndoError, undo_run
from agentls.workspace import LineIndex

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer, Project

CANCEL_WAIT_S = 5.0  # agent/cancel and shutdown wait this long for runs to wind down
KEEP_FINISHED = 100  # finished runs kept for agent/status

Range = tuple[tuple[int, int], tuple[int, int]]


@dataclass
class Run:
    handle: RunHandle
    project: Project
    reporter: RunReporter
    ended_at: float | None = None

    @property
    def state(self) -> RunState:
        return self.handle.state


class RunManager:
    def __init__(self, server: AgentLanguageServer) -> None:
        self.server = server
        self.bridge = ProposalBridge(server, lambda: self.server.settings.proposal_timeout_s)
        self.tools = Toolbox(server, self.bridge)
        self.models = ModelCache()
        self.runs: dict[str, Run] = {}
        self._sessions: dict[Path, SessionStore] = {}

    @classmethod
    def of(cls, server: AgentLanguageServer) -> RunManager:
        """The server's manager (made on first use)."""
        return server.attached(cls)

    # --- where a run works ---------------------------------------------------------------
    def project_for(self, uri: str | None = None) -> tuple[Project, str | None]:
        """The project of a document (and its relative path), or the first project."""
        if uri is not None:
            found = self.server.locate(uri)
            if found is None:
                raise AgentRequestError(f"{uri} is not inside a workspace folder", "context.uri")
            return found
        if not self.server.projects:
            raise request_failed(
                "no workspace folder is open: the agent works on a workspace folder"
            )
        return next(iter(self.server.projects.values())), None

    def editor_context(self, project: Project, rel: str, rng: Range | None = None, problems: tuple[str, ...] = ()) -> EditorContext:
        """Where a run starts from: the path, the range and the selected text (from the
        open buffer, else the disk; no text when the range is empty or out of the file),
        and the problems reported there."""
        text = None
        data = project.workspace.read_bytes(rel) if rng is not None else None
        if data is not None and rng is not None:
            lines = LineIndex(data)
            start, end = lines.offset(*rng[0]), lines.offset(*rng[1])
            if start is not None and end is not None and end > start:
                text = data[start:end].decode("utf-8", "replace")
        return EditorContext(rel, rng, text, problems)

    # --- starting ------------------------------------------------------------------------
    def request(
        self,
        goal: str,
        mode: str | None = None,
        approval: str | None = None,
        max_steps: int | None = None,
        editor: EditorContext | None = None,
    ) -> RunRequest:
        """A run's request, checked against the settings (None values mean theirs; an
        explicit approval must be one the approval rule follows in the run's mode, so an
        explicit "auto" needs mode dev or full); AgentRequestError naming the bad field."""
        request = RunRequest(goal, mode, approval, max_steps, editor)
        self._check(request)
        return request

    def _check(self, request: RunRequest) -> None:
        try:
            request.check(self.server.settings)
        except RunRequestError as exc:
            raise AgentRequestError(exc.message, exc.field, **exc.data) from None

    # --- sessions -------------------------------------------------------------------------
    def store(self, project: Project) -> SessionStore:
        """The sessions of a project's folder (one store each, kept)."""
        return self._sessions.setdefault(project.root, SessionStore(project.root))

    def session(self, project: Project, session_id: Any) -> Session:
        """The session `session_id` of the project (None: a new one); AgentRequestError
        naming `sessionId` for an unknown or malformed id, or one with a run still going."""
        if session_id is None:
            return self.store(project).create()
        try:
            session = self.store(project).load(session_id)
        except SessionError as exc:
            raise AgentRequestError(str(exc), "sessionId", sessionId=session_id) from None
        busy = next((r for r in self.runs.values() if r.state.session_id == session.session_id and not r.state.done), None)
        if busy is not None:
            message = f"session {session.session_id} has a run still going ({busy.state.run_id}): wait for it or cancel it"
            raise AgentRequestError(message, "sessionId", sessionId=session_id, runId=busy.state.run_id)
        return session

    def project_of_session(self, session_id: Any) -> Project | None:
        """The folder whose `.agentls/sessions` holds `session_id`, if any."""
        for project in self.server.projects.values():
            try:
                self.store(project).load(session_id)
            except SessionError:
                continue
            return project
        return None

    def sessions(self) -> list[dict[str, Any]]:
        """`agent/sessions`: every folder's sessions, the most recently updated first."""
        found = [s for p in self.server.projects.values() for s in self.store(p).list()]
        return [s.listing() for s in sorted(found, key=lambda s: s.updated, reverse=True)]

    def start(
        self, project: Project, request: RunRequest, *, progress_token: Any = None, session: Session | None = None
    ) -> str:
        """Start a run in the background (call on the server's loop); its id."""
        settings = self.server.settings
        self._check(request)  # before a model is made for it
        model, shared = self.models.get(settings)
        handle = start_run(
            self.tools.of(project), request, settings=settings, model=model,
            prelude=self._begin, close_model=not shared, facts={"model": settings.model},
            session=session, plan_review=review_plan(self.server),
        )  # fmt: skip
        run = self.runs[handle.run_id] = Run(
            handle, project, RunReporter(self.server, handle.run_id, handle.goal, progress_token)
        )
        handle.listen(run.reporter.event)
        handle.on_end(self._ended)
        if handle.approval == "auto":  # applied at once: nothing to present
            self.bridge.auto_runs.add(handle.run_id)
        self._prune()
        return handle.run_id

    async def _begin(self, handle: RunHandle) -> None:
        """The run's prelude: its work-done progress (cancellable from the client)."""
        await self.runs[handle.run_id].reporter.begin(handle.cancel)

    def _ended(self, handle: RunHandle) -> None:
        self.bridge.auto_runs.discard(handle.run_id)
        run = self.runs.get(handle.run_id)
        if run is not None:
            run.ended_at = time.monotonic()
            with contextlib.suppress(Exception):
                run.reporter.end(handle.state)

    def _prune(self) -> None:
        ended = sorted((r.ended_at, i) for i, r in self.runs.items() if r.ended_at is not None)
        for _, run_id in ended[: max(0, len(ended) - KEEP_FINISHED)]:
            del self.runs[run_id]

    # --- reading and stopping ------------------------------------------------------------
    def get(self, run_id: str) -> Run:
        run = self.runs.get(run_id)
        if run is None:
            raise AgentRequestError(f"unknown runId {run_id!r}", "runId", runId=run_id)
        return run

    def status(self, run_id: str) -> dict[str, Any]:
        return self.get(run_id).state.to_dict()

    async def cancel(self, run_id: str) -> dict[str, Any]:
        """Cancel a run and wait (bounded) for it to wind down; `{runId, status}`."""
        run = self.get(run_id)
        if not run.state.done:
            run.handle.cancel()
        await run.handle.wait(CANCEL_WAIT_S)
        return {"runId": run_id, "status": run.state.status}

    async def undo(self, run_id: str) -> dict[str, Any]:
        """`agent/undo`: the run's applied edits as one new proposal (from its trace, in the
        run's folder or any folder of the server); `{proposalId | null, files, skipped}`."""
        run = self.runs.get(run_id)
        if run is not None and not run.state.done:
            message = f"run {run_id} is still running: cancel it or let it end, then undo it"
            raise AgentRequestError(message, "runId", runId=run_id)
        projects = [run.project] if run is not None else list(self.server.projects.values())
        try:
            project = next(
                (p for p in projects if trace_path(p.root, run_id).is_file()), None
            )
        except ValueError as exc:
            raise AgentRequestError(str(exc), "runId", runId=run_id) from None
        if project is None:
            message = f"unknown run {run_id!r}: no workspace folder has its trace (.agentls/runs)"
            raise AgentRequestError(message, "runId", runId=run_id)
        store = self.tools.of(project).proposals
        try:
            plan = await asyncio.to_thread(undo_run, store, run_id)
        except UndoError as exc:
            raise AgentRequestError(str(exc), "runId", runId=run_id) from None
        return plan.to_dict()

    async def shutdown(self) -> None:
        """Cancel every run and tool call, wait for the runs (bounded), close the models and
        stop the MCP servers."""
        for run in list(self.runs.values()):
            if not run.state.done:
                run.handle.cancel()
        self.tools.cancel_calls()
        tasks = {
            r.handle.task for r in self.runs.values() if r.handle.task and not r.handle.task.done()
        }
        if tasks:
            await asyncio.wait(tasks, timeout=CANCEL_WAIT_S)
        await self.models.aclose()
        await self.tools.aclose()
