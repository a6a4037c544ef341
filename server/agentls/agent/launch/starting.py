"""Starting a run: `start_run` is the one way every front end starts one.

It checks the request, makes the run's one id, its `RunSettings`, its trace
(`.agentls/runs/<runId>.json`: the run's events, and its proposals from the workbench's
store), the `Agent` over the workbench's tools, and the task that drives it on the running
loop: the front end's `prelude` (say, starting its progress), a bounded, cancellable wait
for the workbench's first index and for its MCP servers to list their tools, the agent's run, then the `on_end` callbacks and, when
asked, closing the model. Every event goes to the trace first, then to each listener, on
the loop's thread, in order.

`start_run` is called on the loop and returns before the run takes its first step, so the
front end can still `listen` and add `on_end` callbacks with the run's id in hand. The
`RunHandle` it keeps gives the id, the state, the approval the run's proposals follow
(`permissions.approval_for`: a front end presents proposals that are not applied at
once), `wait()` and `cancel()`. Must not know: any front end, how events are shown or
proposals presented.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from agentls.agent.agent import Agent
from agentls.agent.events import RunEvent
from agentls.agent.launch.request import RunRequest, RunRequestError
from agentls.agent.launch.workbench import INDEX_WAIT_S, Workbench
from agentls.agent.plan_review import PlanReview
from agentls.agent.run import RunState
from agentls.agent.sessions import Session
from agentls.llm.base import ChatModel
from agentls.settings import Settings
from agentls.tools.base import CallGate, EditorFiles
from agentls.tools.permissions import Approval, approval_for
from agentls.tools.run_trace import RunTrace, new_run_id

log = logging.getLogger(__name__)

Listener = Callable[[RunEvent], None]
Prelude = Callable[["RunHandle"], Awaitable[None]]
_READY_POLL_S = 0.05


class RunHandle:
    """What a front end holds of a started run."""

    def __init__(
        self,
        bench: Workbench,
        request: RunRequest,
        agent: Agent,
        trace: RunTrace,
        *,
        close_model: bool,
    ) -> None:
        self.bench = bench
        self.request = request
        self.agent = agent
        self.trace = trace
        self.task: asyncio.Task[None] | None = None
        self._listeners: list[Listener] = []
        self._on_end: list[Callable[[RunHandle], None]] = []
        self._close_model = close_model

    @property
    def run_id(self) -> str:
        return self.agent.run_id

    @property
    def goal(self) -> str:
        return self.request.text

    @property
    def state(self) -> RunState:
        return self.agent.state

    @property
    def approval(self) -> Approval:
        """The approval the run's proposals follow (`auto`: applied at once)."""
        settings = self.agent.settings
        return approval_for(settings.mode, settings.approval).approval

    def listen(self, listener: Listener) -> None:
        """Hear the run's events (on the loop's thread, after the trace)."""
        self._listeners.append(listener)

    def on_end(self, callback: Callable[[RunHandle], None]) -> None:
        """Call `callback(handle)` when the run's task ends, however it ends."""
        self._on_end.append(callback)

    def cancel(self) -> None:
        """Stop the run (thread-safe, idempotent)."""
        self.agent.cancel()

    async def wait(self, timeout: float | None = None) -> RunState:
        """The state once the run's task ended, or after `timeout` seconds."""
        if self.task is not None and not self.task.done():
            await asyncio.wait({self.task}, timeout=timeout)
        return self.state

    # --- inside the run's task ------------------------------------------------------------
    def _event(self, event: RunEvent) -> None:
        self.trace.event(event.to_dict())
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # one listener's bug must not stop the run or the others
                log.exception("a listener failed on a %s event of run %s", event.kind, self.run_id)

    async def _drive(self, prelude: Prelude | None) -> None:
        agent = self.agent
        try:
            await asyncio.sleep(0)  # the front end answers with the run id before the first event
            if prelude is not None:
                await prelude(self)
            await self._index_ready()
            await self.bench.prepare_tools(agent.tool_context.cancel)
            await agent.run(self.goal, self.request.editor)
        except asyncio.CancelledError:
            agent.cancel()
            raise
        except Exception:  # Agent.run never raises; this guards the glue around it
            log.exception("run %s failed outside the agent", self.run_id)
        finally:
            for callback in self._on_end:
                try:
                    callback(self)
                except Exception:
                    log.exception("an end callback of run %s failed", self.run_id)
            if self._close_model:
                with contextlib.suppress(Exception):
                    await agent.model.aclose()

    async def _index_ready(self) -> None:
        """Wait (bounded, and cancellably) for the workbench's first index."""
        ready, cancel = self.bench.ready, self.agent.tool_context.cancel
        if ready is None:
            return
        deadline = time.monotonic() + INDEX_WAIT_S
        while not ready.is_set() and time.monotonic() < deadline and not cancel.is_set():
            await asyncio.sleep(_READY_POLL_S)


def start_run(
    bench: Workbench,
    request: RunRequest,
    *,
    settings: Settings,
    model: ChatModel,
    listener: Listener | None = None,
    prelude: Prelude | None = None,
    close_model: bool = False,
    facts: Mapping[str, Any] | None = None,
    session: Session | None = None,
    editor: EditorFiles | None = None,
    gate: CallGate | None = None,
    plan_review: PlanReview | None = None,
) -> RunHandle:
    """Start the run `request` asks for on the running loop; its handle. RunRequestError
    for a bad request (nothing is started). `settings`: the configured settings the
    request's values go over; `facts`: more for the trace (the model spec, a recording);
    `session`: the conversation the run continues (it sees the earlier runs, and is recorded
    in it when it ends); `editor`, `gate`: the front end's hooks on the run's tools (reads
    through the editor, asking before a call); `plan_review`: its hook for approval `plan`
    (the first plan put to the user; without one such a request is refused)."""
    run_settings = request.check(settings)
    if run_settings.approval == "plan" and plan_review is None:
        raise RunRequestError("approval 'plan' is not served here: nothing can show the plan", "approval")
    run_id = new_run_id()
    trace = RunTrace(
        bench.workspace.root, run_id, request.text, bench.proposals,
        mode=run_settings.mode, approval=run_settings.approval,
        maxSteps=run_settings.max_steps, **(facts or {}),
    )  # fmt: skip
    handle: RunHandle | None = None

    def on_event(event: RunEvent) -> None:
        if handle is not None:
            handle._event(event)

    agent = Agent(
        workspace=bench.workspace,
        model=model,
        settings=run_settings,
        registry=bench.registry,
        executor=bench.executor,
        proposals=bench.proposals,
        index=bench.index,
        on_event=on_event,
        run_id=run_id,
        earlier=session.earlier() if session is not None else (),
        editor=editor,
        gate=gate,
        plan_review=plan_review,
    )
    if session is not None:
        agent.state.session_id = session.session_id
    handle = RunHandle(bench, request, agent, trace, close_model=close_model)
    if listener is not None:
        handle.listen(listener)
    if session is not None:
        handle.on_end(lambda h: _record(session, h))
    handle.task = asyncio.get_running_loop().create_task(handle._drive(prelude))
    return handle


def _record(session: Session, handle: RunHandle) -> None:
    """The ended run, kept in its session (a failure to save is logged: the run stands)."""
    proposals = [
        {**p.to_dict(), "files": [c.path for c in p.changes]}
        for p in handle.bench.proposals.list(handle.run_id)
    ]
    try:
        session.record(handle.state.to_dict(), proposals)
    except OSError:
        log.exception("run %s could not be recorded in session %s", handle.run_id, session.session_id)
