"""The Agent: one run of the task loop over a workspace, observable through events.

It builds the run's ToolContext (workspace, permissions from `settings.mode`, run id,
approval, the proposal store, index, memory, the cancel event, the proposal timeout),
creates the built-in components as attributes and collects them (plus any given ones),
runs the loop, and emits `RunEvent`s: `status`, `task`, `thought`, `tool_call`,
`tool_result`, `proposal` (this run's proposals, created or resolved, forwarded from the
ProposalStore's listeners), `error`, `rules` and `warning` (the rules files read and the
goal's mentions resolved before the first turn), and `finished` last. Events are delivered on the
event loop's thread; an `on_event` callback must not block it.

`cancel()` may be called from any thread: the status becomes `cancelled` at once, the
model call is abandoned, the ToolContext's cancel event is set (the executor tells the
running tool to stop and the sandbox kills its process tree; the run waits briefly for
it), and the run's proposals still pending are rejected with the comment "the run was
cancelled" — nothing is applied after a cancel. Runs that end otherwise leave pending
proposals pending (with approval `never` that is the point). The agent never talks to an
editor. Must not know: pygls/lsprotocol, the CLI.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentls.agent.builtin import (
    BudgetsComponent,
    ConversationComponent,
    DoneCheckComponent,
    EditorContextComponent,
    GroundingComponent,
    HistoryComponent,
    MemoryComponent,
    SystemComponent,
    ToolsComponent,
    WatchdogComponent,
)
from agentls.agent.builtin.evidence import grounded_answer
from agentls.agent.builtin.mentions import MentionsComponent
from agentls.agent.builtin.rules import RulesComponent
from agentls.agent.builtin.test_status import TestStatusComponent
from agentls.agent.components import AgentComponent
from agentls.agent.context import RunContext, RunSettings
from agentls.agent.events import RunEvent
from agentls.agent.goal import GoalReading, read_goal
from agentls.agent.goal.facts import WorkspaceFacts
from agentls.agent.loop import TaskLoop
from agentls.agent.outcomes import RunStop
from agentls.agent.pipeline import Pipeline, collect_components
from agentls.agent.plan_review import PlanAnswer, PlanReview, PlanReviewError
from agentls.agent.report import compose
from agentls.agent.run import EditorContext, RunState, Status
from agentls.agent.verification import Verification, decide
from agentls.llm.base import ChatModel
from agentls.tools.audit import AuditLog
from agentls.tools.base import CallGate, EditorFiles, ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.permissions import PLAN_THEN, Permission, PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.tools.registry import ToolRegistry, default_registry
from agentls.tools.run_trace import new_run_id
from agentls.tools.sandbox import unconfined_notice
from agentls.workspace import Workspace

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex
    from agentls.tools.knowledge.memory import MemoryStore

log = logging.getLogger(__name__)

__all__ = ["Agent", "EditorContext", "RunEvent", "RunSettings", "RunState"]

CANCEL_COMMENT = "the run was cancelled"


class Agent:
    def __init__(
        self,
        *,
        workspace: Workspace,
        model: ChatModel,
        settings: RunSettings,
        registry: ToolRegistry | None = None,
        executor: ToolExecutor | None = None,
        proposals: ProposalStore | None = None,
        index: WorkspaceIndex | None = None,
        memory: MemoryStore | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
        components: list[AgentComponent] | None = None,
        run_id: str | None = None,
        earlier: tuple[dict[str, Any], ...] = (),
        editor: EditorFiles | None = None,
        gate: CallGate | None = None,
        plan_review: PlanReview | None = None,
    ) -> None:
        self.run_id = run_id or new_run_id()
        self.model = model
        self.settings = settings
        self.on_event = on_event
        registry = registry or (executor.registry if executor else default_registry())
        self.executor = executor or ToolExecutor(registry, AuditLog.for_workspace(workspace.root))
        self.proposals = proposals or ProposalStore(workspace)
        self.tool_context = ToolContext(
            workspace=workspace,
            permissions=PermissionSet.for_mode(settings.mode),
            run_id=self.run_id,
            approval=PLAN_THEN if settings.approval == "plan" else settings.approval,
            proposals=self.proposals,
            index=index,
            memory=memory,
            extra={"proposal_timeout_s": settings.proposal_timeout_s},
            settings=settings.source,
            editor=editor,
            gate=gate,
        )
        self.state = RunState(self.run_id, goal="")
        self.state.context_window = int(getattr(model, "n_ctx", 0) or model.context_tokens)
        self.context = RunContext(
            goal="",
            settings=settings,
            state=self.state,
            tools=self.tool_context,
            context_tokens=model.context_tokens,
            earlier=earlier,
        )
        run = self.context
        # The built-in components, found by collect_components in this order.
        self.system = SystemComponent(run)
        self.rules = RulesComponent(run)  # the project's rules files (DESIGN §9)
        self.tools = ToolsComponent(registry, self.executor, self.tool_context)
        self.memory = MemoryComponent(run)
        self.editor_context = EditorContextComponent(run)
        self.mentions = MentionsComponent(run, self.executor)  # the goal's @-mentions
        self.conversation = ConversationComponent(run)
        self.grounding = GroundingComponent(run)
        self.watchdog = WatchdogComponent(settings.watchdog_repeats)
        self.done_check = DoneCheckComponent(
            run,
            self._suite if "run_test_suite" in registry else None,
            writes=lambda name: _writes(registry, name),
            command=self._command if "run_command" in registry else None,
        )
        # (before the history: what stays the same all run comes first in the prompt)
        self.test_status = TestStatusComponent(run, self.done_check)
        self.history = HistoryComponent(run)
        self.budgets = BudgetsComponent(run)
        self.pipeline = Pipeline(
            [*collect_components(self), *(components or [])], retry_limit=settings.retry_limit
        )
        self._lock = threading.Lock()
        self._started = False
        self._cancel_requested = False
        self._finished = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._cancel_event: asyncio.Event | None = None
        self._proposal_events: deque[dict[str, Any]] = deque()  # from the store, not yet emitted
        self._own_memory = memory is None
        #: approval `plan`: the front end's hook the first plan is put to (plan_review.py)
        self.plan_review = (plan_review or _no_review) if settings.approval == "plan" else None

    async def _command(self, command: str) -> Any:
        """One sandboxed shell command for the done check (None when it cannot run)."""
        tool = self.executor.registry.get("run_command")
        if tool is None or not self.executor.registry.availability(tool, None, self.tool_context)[0]:
            return None
        return await self.executor.execute_async("run_command", {"command": command}, self.tool_context)

    async def _suite(self) -> Any:
        """The workspace's tests, run for the done check (None when the tool cannot run)."""
        tool = self.executor.registry.get("run_test_suite")
        if tool is None or not self.executor.registry.availability(tool, None, self.tool_context)[0]:
            return None
        return await self.executor.execute_async("run_test_suite", {}, self.tool_context)

    # --- running -----------------------------------------------------------------------
    async def run(self, goal: str, context: EditorContext | None = None) -> RunState:
        """Run the goal to its end; the final state (also `self.state`)."""
        with self._lock:
            if self._started:
                raise RuntimeError("an Agent runs once; create a new one for another goal")
            self._started = True
        self.state.goal = self.context.goal = goal
        self.context.editor = context
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._cancel_event = cancel = asyncio.Event()
        self.proposals.add_listener(self._on_proposal)
        self._emit("status", {"status": "running", "goal": goal})
        if notice := unconfined_notice(self.tool_context):  # said once per run (issue 12)
            self._emit("status", {"status": "running", "notice": notice})
        outside: BaseException | None = None
        try:
            if self._cancel_requested:
                raise asyncio.CancelledError("cancelled before it started")
            self.context.reading = await asyncio.to_thread(self._read_goal, goal, context)
            await self.rules.prepare(self._emit)  # before the first turn
            await self.mentions.prepare(goal, self._emit, context.mentions if context else ())
            if dropped := await asyncio.to_thread(self.conversation.dropped):  # said once (DESIGN §9)
                self._emit("status", {"status": "running", "notice": dropped})
            loop = TaskLoop(
                self.context, self.pipeline, self.model, self._emit, cancel, self.done_check,
                review=self.plan_review,
            )
            words = await loop.execute()
            summary = self._report(words)
            failed = [c for c in (self.state.verification or {}).get("checks", []) if not c["passed"]]
            if failed:  # a failing check means the run is not completed (DESIGN §9)
                message = f"not done: a check failed ({failed[0]['kind']}): {failed[0]['detail'].splitlines()[0]}"
                self._emit("error", {"type": "failed", "message": message})
                self._end("failed", error=message, summary=summary)
            else:
                self._end("completed", summary=summary)
        except RunStop as stop:
            self._emit("error", {"type": stop.status, "message": stop.message})
            said = next((t.result for t in reversed(self.state.tasks) if t.status == "done" and t.result), None)
            self._end(stop.status, error=stop.message, summary=self._report(said, stop.message))
        except asyncio.CancelledError as exc:
            if not self._cancel_requested:  # our caller cancelled us: finish, then pass it on
                outside = exc
                self.tool_context.cancel.set()
            self._end("cancelled", error="cancelled")
        except Exception as exc:  # never crash the caller: the run fails with the reason
            log.exception("run %s failed", self.run_id)
            message = f"internal error: {type(exc).__name__}: {exc}"
            self._emit("error", {"type": "internal", "message": message})
            self._end("failed", error=message)
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0)  # deliver proposal events queued by tool threads
            self._finish()
        if outside is not None:
            raise outside
        return self.state

    def cancel(self) -> None:
        """Stop the run now (thread-safe, idempotent)."""
        with self._lock:
            self._cancel_requested = True
            if self._started and not self.state.done:
                self.state.end("cancelled", error="cancelled")
        self.tool_context.cancel.set()
        loop, event = self._loop, self._cancel_event
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the run is over
                loop.call_soon_threadsafe(event.set)

    @property
    def trace(self) -> list[str]:
        """The pipeline trace (protocols, components that ran, failures)."""
        return self.pipeline.trace

    # --- ending ------------------------------------------------------------------------
    def _end(self, status: Status, *, summary: str | None = None, error: str | None = None) -> None:
        with self._lock:
            if not self.state.done:
                self.state.end(status, summary=summary, error=error)

    def _read_goal(self, goal: str, editor: EditorContext | None) -> GoalReading:
        """The goal read over the workspace, once (goal/); the editor's file counts as named."""
        may_write = Permission.FILESYSTEM_WRITE in self.tool_context.permissions
        reading = read_goal(goal, WorkspaceFacts(self.tool_context), may_write)
        if editor is not None and editor.path not in reading.files:
            reading.files.insert(0, editor.path)
        return reading

    def _report(self, words: str | None, stopped: str | None = None) -> str:
        """The run's verification (kept on the state) and its summary from the facts
        (report.py); a stopped run's reason first."""
        check, reading = self.done_check, self.context.reading
        checks = list(check.checks.values()) if check is not None else []
        if not reading.wants_change and words and stopped is None:
            checks.append(grounded_answer(words, self.context))
        verification = decide(checks, self._why_unverified())
        if stopped is not None and verification.verified is not False:
            verification = Verification(False if checks else None, checks, verification.unverified)
        self.state.verification = verification.to_dict()
        proposals = check.changed() if check is not None else []
        proposals += [p for p in self.proposals.list(self.run_id) if p.status in ("rejected", "stale", "failed")]
        proposals.sort(key=lambda p: p.created_at)
        summary = compose(words, proposals, verification, answer=not reading.wants_change, read=reading.files)
        return summary if stopped is None else f"{stopped}\n{summary}"

    def _why_unverified(self) -> str:
        """What could not be checked, for a run whose verification is null."""
        reading, perms = self.context.reading, self.tool_context.permissions
        if not reading.wants_change and not reading.clear:
            return "the goal asks neither for a change nor a question the run could check"
        if not reading.wants_change:
            return "the answer names nothing that the files read hold"
        if Permission.SHELL_EXECUTION not in perms:
            return f"the tests were not run (mode {self.settings.mode!r} may not run processes)"
        if self.done_check is None or self.done_check.tests is None:
            return "the workspace's tests could not be run"
        tests = self.done_check.checks.get("tests")
        if tests is not None and tests.passed:
            _, _, names = tests.detail.partition("; but no test calls ")
            return f"the tests pass, but none of them calls {names}" if names else "the tests that ran do not check the change"
        return "no test ran on the change (the workspace has none the run could find), and the goal names no value or name to check"

    def _finish(self) -> None:
        state = self.state
        if state.verification is None:  # cancelled, or an internal error: nothing was checked
            why = "the run was cancelled" if state.status == "cancelled" else f"the run ended {state.status} before any check"
            state.verification = Verification(None, [], why).to_dict()
        cancelled = state.status == "cancelled"
        for index, task in enumerate(state.tasks):
            if task.status in ("running", "pending"):
                task.move("skipped" if cancelled or task.status == "pending" else "failed")
                self._emit("task", {"index": index, **task.to_dict()})
        if cancelled:
            for proposal in self.proposals.list(self.run_id):
                if proposal.status == "pending":
                    with contextlib.suppress(KeyError, ValueError):
                        self.proposals.resolve(proposal.id, "rejected", CANCEL_COMMENT)
        self.proposals.remove_listener(self._on_proposal)
        self._emit_proposal_events()  # those a tool thread queued that the loop has not run yet
        if self._own_memory and self.tool_context.memory is not None:
            self.tool_context.memory.close()  # opened for this run by the memory component
        self._emit(
            "finished",
            {
                "status": state.status,
                "summary": state.summary,
                "error": state.error,
                "steps": state.steps,
                "verification": state.verification,
                "usage": state.usage_dict(),
            },
        )
        self._finished = True

    # --- events --------------------------------------------------------------------------
    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        if self._finished or self.on_event is None:
            return
        try:
            self.on_event(RunEvent(self.run_id, kind, data))
        except Exception:  # a listener's bug must not stop the run
            log.exception("on_event failed for a %s event of run %s", kind, self.run_id)

    def _on_proposal(self, event: dict[str, Any]) -> None:
        """A ProposalStore listener (any thread): this run's proposal events, queued in the
        order the store delivers them (creation before decision) and emitted on the loop."""
        proposal = event.get("proposal") or {}
        if proposal.get("runId") != self.run_id or self._loop is None:
            return
        self._proposal_events.append(event)
        if threading.get_ident() == self._loop_thread:
            self._emit_proposal_events()
        else:
            with contextlib.suppress(RuntimeError):  # a closed loop: the run is over
                self._loop.call_soon_threadsafe(self._emit_proposal_events)

    def _emit_proposal_events(self) -> None:
        """On the loop: emit the queued proposal events, oldest first."""
        while self._proposal_events:
            event = self._proposal_events.popleft()
            proposal, action = event["proposal"], event.get("action")
            if action == "created" and proposal["id"] not in self.state.proposals:
                self.state.proposals.append(proposal["id"])
            self._emit("proposal", {"action": action, "proposal": proposal})


async def _no_review(run_id: str, tasks: list[str]) -> PlanAnswer:
    """Approval `plan` with no hook: nothing may run unreviewed."""
    raise PlanReviewError("no one can be asked about the plan here (approval 'plan' needs a front end that shows it)")


def _writes(registry: Any, name: str) -> bool:
    """Whether the registry's tool `name` changes files (needs filesystemWrite)."""
    tool = registry.get(name)
    return tool is not None and Permission.FILESYSTEM_WRITE in tool.permissions
