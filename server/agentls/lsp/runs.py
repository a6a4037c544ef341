"""The agent runs of the server: `agent/run`, `agent/status`, `agent/cancel` (and the code
actions' command) start, read and stop them here.

The RunManager holds the ProposalBridge (proposals ↔ editor), the Toolbox (per project:
registry, executor, ProposalStore) and the ModelCache. Each run is an Agent over its
project's tools and store, driven by a task on the server's loop; RunReporter turns its
events into `agent/event` notifications and work-done progress; RunTrace keeps them, with
its proposals and decisions, in `.agentls/runs/<runId>.json`, which `agent/undo` reads
(so a run can be undone after a restart). A run waits (bounded, and
cancellably) for the project's first index before its first turn. Bad requests raise
`AgentRequestError` (a JSON-RPC -32602 naming the field), also when `start` is called from
a command. `shutdown()` cancels every run and tool call: their worker threads must not
keep the process alive after `exit`. Must not know: the loop's internals, tools'
internals, how params arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from agentls.agent.agent import Agent, EditorContext, RunEvent, RunSettings
from agentls.llm.base import ChatModel
from agentls.lsp.models import ModelCache
from agentls.lsp.params import AgentRequestError, diagnostic_lines, lsp_range, request_failed
from agentls.lsp.proposals import ProposalBridge
from agentls.lsp.run_reporter import RunReporter
from agentls.lsp.toolbox import Toolbox
from agentls.tools.permissions import MODES, Approval, approval_for
from agentls.tools.run_trace import RunTrace, new_run_id, trace_path
from agentls.tools.undo import UndoError, undo_run
from agentls.workspace import LineIndex

if TYPE_CHECKING:
    from agentls.lsp.server import AgentLanguageServer, Project

log = logging.getLogger(__name__)

APPROVALS = ("ask", "auto", "never")
MAX_STEPS_LIMIT = 1000
INDEX_WAIT_S = 30.0  # a run waits this long at most for the project's first index
CANCEL_WAIT_S = 5.0  # agent/cancel and shutdown wait this long for runs to wind down
KEEP_FINISHED = 100  # finished runs kept for agent/status

Range = tuple[tuple[int, int], tuple[int, int]]


@dataclass
class Run:
    agent: Agent
    project: Project
    reporter: RunReporter
    model: ChatModel
    shared_model: bool
    task: asyncio.Task[None] | None = None
    ended_at: float | None = None


class RunManager:
    def __init__(self, server: AgentLanguageServer) -> None:
        self.server = server
        self.bridge = ProposalBridge(server, lambda: self.server.settings.proposal_timeout_s)
        self.tools = Toolbox(server, self.bridge)
        self.models = ModelCache()
        self.runs: dict[str, Run] = {}

    @classmethod
    def of(cls, server: AgentLanguageServer) -> RunManager:
        """The server's manager (`server.runs`, made on first use unless the server made it)."""
        manager = getattr(server, "runs", None)
        if not isinstance(manager, RunManager):
            manager = cls(server)
            server.runs = manager  # type: ignore[attr-defined]
        return manager

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

    def _context(self, project: Project, context: Mapping[str, Any]) -> EditorContext:
        """An `agent/run`-shaped context `{uri, range?}` (LSP range) → EditorContext."""
        uri = context.get("uri")
        if not isinstance(uri, str):
            raise AgentRequestError("context.uri must be a document URI", "context.uri")
        found = self.server.locate(uri)
        if found is None or found[0] is not project:
            raise AgentRequestError(f"{uri} is not inside {project.root}", "context.uri")
        rng = context.get("range")
        if rng is not None and not isinstance(rng, tuple):
            rng = lsp_range(rng, "context.range", "agent/run")
        problems = diagnostic_lines(context.get("diagnostics"), "context.diagnostics", "agent/run")
        return self.editor_context(project, found[1], rng, problems)

    # --- starting ------------------------------------------------------------------------
    def start(
        self,
        project: Project,
        goal: str,
        mode: str | None = None,
        approval: str | None = None,
        max_steps: int | None = None,
        context: EditorContext | Mapping[str, Any] | None = None,
        *,
        progress_token: Any = None,
    ) -> str:
        """Start a run in the background (call on the server's loop); its id. `context` is
        an EditorContext or the `agent/run` shape `{uri, range?}`; None values mean the
        settings'. An explicit approval "auto" needs mode dev or full."""
        goal = goal.strip() if isinstance(goal, str) else ""
        if not goal:
            raise AgentRequestError("the goal must not be empty", "goal")
        settings = self.server.settings
        mode = mode or settings.mode
        if mode not in MODES:
            choices = ", ".join(MODES)
            raise AgentRequestError(f"unknown mode {mode!r}; expected one of {choices}", "mode")
        if approval is not None and approval not in APPROVALS:
            choices = ", ".join(APPROVALS)
            message = f"unknown approval {approval!r}; expected one of {choices}"
            raise AgentRequestError(message, "approval")
        grant = approval_for(mode, cast(Approval, approval)) if approval is not None else None
        if grant is not None and grant.changed:  # an explicit approval is followed or refused
            raise AgentRequestError(grant.reasons[0], "approval")
        if max_steps is not None and not 1 <= max_steps <= MAX_STEPS_LIMIT:
            message = f"maxSteps must be from 1 to {MAX_STEPS_LIMIT}, got {max_steps}"
            raise AgentRequestError(message, "maxSteps")
        editor = self._context(project, context) if isinstance(context, Mapping) else context
        run_settings = RunSettings.from_settings(
            settings, mode=mode, approval=approval, max_steps=max_steps
        )
        tools = self.tools.of(project)
        model, shared = self.models.get(settings)
        run_id = new_run_id()
        reporter = RunReporter(self.server, run_id, goal, progress_token)
        trace = RunTrace(
            project.root, run_id, goal, tools.proposals, mode=mode,
            approval=run_settings.approval, model=settings.model, maxSteps=run_settings.max_steps,
        )  # fmt: skip

        def on_event(event: RunEvent) -> None:
            trace.event(event.to_dict())
            reporter.event(event)

        agent = Agent(
            workspace=project.workspace,
            model=model,
            settings=run_settings,
            registry=tools.registry,
            executor=tools.executor,
            proposals=tools.proposals,
            index=project.index,
            on_event=on_event,
            run_id=run_id,
        )
        if approval_for(mode, run_settings.approval).approval == "auto":
            self.bridge.auto_runs.add(run_id)
        run = self.runs[run_id] = Run(agent, project, reporter, model, shared)
        run.task = asyncio.get_running_loop().create_task(self._drive(run, goal, editor))
        self._prune()
        return run_id

    async def _drive(self, run: Run, goal: str, editor: EditorContext | None) -> None:
        agent = run.agent
        try:
            await asyncio.sleep(0)  # let the `{runId}` answer go out before the first event
            await run.reporter.begin(agent.cancel)
            deadline = time.monotonic() + INDEX_WAIT_S
            while (
                not run.project.ready.is_set()
                and time.monotonic() < deadline
                and not agent.tool_context.cancel.is_set()
            ):
                await asyncio.sleep(0.05)
            await agent.run(goal, editor)
        except asyncio.CancelledError:
            agent.cancel()
            raise
        except Exception:  # Agent.run never raises; this guards the glue around it
            log.exception("run %s failed outside the agent", agent.run_id)
        finally:
            run.ended_at = time.monotonic()
            self.bridge.auto_runs.discard(agent.run_id)
            with contextlib.suppress(Exception):
                run.reporter.end(agent.state)
            if not run.shared_model:
                with contextlib.suppress(Exception):
                    await run.model.aclose()

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
        return self.get(run_id).agent.state.to_dict()

    async def cancel(self, run_id: str) -> dict[str, Any]:
        """Cancel a run and wait (bounded) for it to wind down; `{runId, status}`."""
        run = self.get(run_id)
        if not run.agent.state.done:
            run.agent.cancel()
        if run.task is not None and not run.task.done():
            await asyncio.wait({run.task}, timeout=CANCEL_WAIT_S)
        return {"runId": run_id, "status": run.agent.state.status}

    async def undo(self, run_id: str) -> dict[str, Any]:
        """`agent/undo`: the run's applied edits as one new proposal (from its trace, in the
        run's folder or any folder of the server); `{proposalId | null, files, skipped}`."""
        run = self.runs.get(run_id)
        if run is not None and not run.agent.state.done:
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
        """Cancel every run and tool call, wait for the runs (bounded), close the models."""
        for run in list(self.runs.values()):
            if not run.agent.state.done:
                run.agent.cancel()
        self.tools.cancel_calls()
        tasks = {r.task for r in self.runs.values() if r.task is not None and not r.task.done()}
        if tasks:
            await asyncio.wait(tasks, timeout=CANCEL_WAIT_S)
        await self.models.aclose()
