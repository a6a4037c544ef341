"""One ACP session: a §9 session on one workspace, its mode, approval and standing rules,
and the prompt turns that run the agent in it.

`prompt` turns the prompt's blocks into a goal, starts the run the one way every front end
does (`agent.launch.start_run`, with the session, so the run sees the earlier ones and is
recorded in it), streams the run's events as `session/update`s in order through one
sender (updates.py), and answers with the stop reason once every update is out. Under
approval `ask` each proposal is put to the user with `session/request_permission` (its
diff on the step that made it) and each shell command or MCP tool call before it runs (the
run's tool gate) — unless an auto-approve rule lets it through (DESIGN §9: the executor
does not ask the gate, the store marks the proposal; the step says which rule);
the decision resolves the proposal, applied through the client's `fs/write_text_file`
where it offers it. Under approval `plan` (DESIGN §7, §9) the run's first plan goes out as
the `plan` update, then `session/request_permission` on a `switch_mode` tool call ("Run
this plan?"): allowed, the run goes on as `ask`; rejected (or the request failed), it ends
before any tool runs (stop reason `cancelled`). `cancel` ends the run (stop reason `cancelled`); `set_mode` changes the
permissions from the next tool call.
Must not know: the connection's transport, how the client shows anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from acp.schema import StopReason, ToolCallUpdate, ToolKind

from acp import RequestError, text_block, tool_content, update_agent_thought, update_user_message
from agentls.acp import updates
from agentls.acp.asking import USER_REJECTED, Asking
from agentls.acp.client_files import ClientFiles
from agentls.agent.events import RunEvent
from agentls.agent.launch import RunHandle, RunRequest, RunRequestError, Workbench, start_run
from agentls.agent.plan_review import PlanAnswer, PlanReviewError
from agentls.agent.sessions import Session
from agentls.llm.base import ChatModel
from agentls.settings import Settings
from agentls.tools.auto_approval import call_rule
from agentls.tools.base import Tool, ToolContext
from agentls.tools.permissions import PermissionSet, approval_for
from agentls.tools.proposals.store import Decision

log = logging.getLogger(__name__)

ATTACHED_CHARS = 20_000
#: The tool categories whose calls are asked about before they run (under `ask`).
ASKED_FIRST = frozenset({"shell", "mcp"})
_STOP = object()  # the sender's end


class AcpSession:
    def __init__(
        self,
        conn: Any,
        session: Session,
        bench: Workbench,
        settings: Settings,
        files: ClientFiles,
    ) -> None:
        self.conn = conn
        self.session = session
        self.bench = bench
        self.settings = settings
        self.mode: str = settings.mode
        self.approval: str = settings.approval
        self.files = files
        self.asking = Asking(conn, session.session_id)
        self.handle: RunHandle | None = None
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._current: tuple[str, str] | None = None  # the running step: (call id, tool)
        self._steps: dict[str, str] = {}  # proposal id → the step (call id) that made it
        self._asks: set[asyncio.Task[None]] = set()
        if files.can_write:
            bench.proposals.applier = files.apply

    @property
    def session_id(self) -> str:
        return self.session.session_id

    @property
    def running(self) -> bool:
        return self.handle is not None and not self.handle.state.done

    # --- a prompt turn ---------------------------------------------------------------
    async def prompt(self, blocks: list[Any], model: ChatModel) -> StopReason:
        if self.running:
            raise RequestError.invalid_request({"message": "a prompt of this session is still running"})
        goal = goal_text(blocks, self.bench.workspace.root)
        request = RunRequest(goal, mode=self.mode, approval=self.approval)
        sender = asyncio.create_task(self._send_all())
        try:
            try:
                handle = start_run(
                    self.bench, request, settings=self.settings, model=model,
                    listener=self._on_event, session=self.session,
                    editor=self.files if self.files.can_read else None, gate=self._gate,
                    facts={"frontEnd": "acp", "sessionId": self.session_id}, plan_review=self._review_plan,
                )  # fmt: skip
            except RunRequestError as exc:
                raise RequestError.invalid_params({"field": exc.field, "message": exc.message}) from None
            self.handle = handle
            state = await handle.wait()
            for task in list(self._asks):  # a question still open at the end is moot
                task.cancel()
            handle.trace.close()
            result = state.to_dict()
            result["error"] = state.error
            self._send(updates.final_message(result))
            if (used := updates.usage(result)) is not None:
                self._send(used)
            return updates.STOP_REASONS.get(str(result["status"]), "end_turn")
        finally:
            self._queue.put_nowait(_STOP)
            with contextlib.suppress(Exception):
                await sender

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()

    def close(self) -> None:
        """Stop the run and the session's MCP servers (the workspace's index stays)."""
        self.cancel()
        self.bench.close()

    def set_mode(self, mode: str) -> None:
        """The session's permission mode, from the running run's next tool call on."""
        permissions = PermissionSet.for_mode(mode)  # ValueError for an unknown mode
        self.mode = mode
        if self.running and self.handle is not None:
            self.handle.agent.tool_context.permissions = permissions

    async def replay(self) -> None:
        """The session's history as updates (`session/load`): each goal and its report."""
        for run in self.session.runs:
            await self.conn.session_update(
                session_id=self.session_id, update=update_user_message(text_block(str(run.get("goal", ""))))
            )
            await self.conn.session_update(
                session_id=self.session_id, update=updates.final_message(run | {"verification": {"verified": run.get("verified")}})
            )

    # --- updates, in order -------------------------------------------------------------
    def _send(self, update: Any) -> None:
        self._queue.put_nowait(update)

    async def _sent(self) -> None:
        """Wait until every update queued so far is out."""
        marker = asyncio.Event()
        self._queue.put_nowait(marker)
        await marker.wait()

    async def _send_all(self) -> None:
        while (update := await self._queue.get()) is not _STOP:
            if isinstance(update, asyncio.Event):  # a `_sent` marker
                update.set()
                continue
            try:
                await self.conn.session_update(session_id=self.session_id, update=update)
            except Exception as exc:  # a client that went away: the run goes on, unseen
                log.warning("session/update failed: %s", exc)

    def _on_event(self, event: RunEvent) -> None:
        data, kind = event.data, event.kind
        root = self.bench.workspace.root
        if kind == "task" and self.handle is not None:
            self._send(updates.plan([t.to_dict() for t in self.handle.state.tasks]))
        elif kind == "tool_call" and data.get("name") != "finish":
            self._current = (str(data.get("id")), str(data.get("name")))
            self._send(updates.tool_started(data, self.bench.registry, root, self._call_rule(data)))
        elif kind == "tool_result" and data.get("name") != "finish":
            self._send(updates.tool_ended(data))
        elif kind == "proposal":
            self._on_proposal(str(data.get("action")), data.get("proposal") or {})
        elif kind == "stream" and data.get("text"):  # the model's text as it comes: alive
            self._send(update_agent_thought(text_block(str(data["text"]))))

    def _on_proposal(self, action: str, proposal: dict[str, Any]) -> None:
        pid = str(proposal.get("id"))
        if action == "created":
            if self._current is None:
                return
            call_id, tool = self._current
            self._steps[pid] = call_id
            found = self.bench.proposals.get(pid)
            if found is not None:
                self._send(updates.proposal_diff(call_id, found, self.bench.workspace.root))
            asked = not proposal.get("autoApproved")  # the user's rule answers for them
            if asked and proposal.get("status") == "pending" and self.handle is not None and self.handle.approval == "ask":
                task = asyncio.create_task(self._decide(pid, call_id, tool))
                self._asks.add(task)
                task.add_done_callback(self._asks.discard)
        elif action == "resolved" and pid in self._steps:
            self._send(updates.proposal_decided(self._steps[pid], proposal))

    async def _decide(self, pid: str, call_id: str, tool: str) -> None:
        """Ask the user about a proposal (after its diff went out) and resolve it."""
        proposal = self.bench.proposals.get(pid)
        if proposal is None:
            return
        diff = updates.proposal_diff(call_id, proposal, self.bench.workspace.root)
        asked = ToolCallUpdate(
            tool_call_id=call_id, title=proposal.title, kind="edit", status="pending",
            content=diff.content, locations=diff.locations,
        )  # fmt: skip
        answer = await self.asking.ask(tool, asked)
        decision: Decision = "accepted" if answer.allowed else "rejected"
        comment = None if answer.allowed else answer.why
        try:
            await asyncio.to_thread(self.bench.proposals.resolve, pid, decision, comment)
        except (KeyError, ValueError) as exc:
            log.warning("proposal %s could not be resolved: %s", pid, exc)

    # --- plan review (approval `plan`) ----------------------------------------------------
    async def _review_plan(self, run_id: str, tasks: list[str]) -> PlanAnswer:
        """The plan as the `plan` update, then "Run this plan?" (a `switch_mode` tool call:
        from planning to acting); an allowed plan runs as it was shown."""
        self._send(updates.plan([{"title": t, "status": "pending"} for t in tasks]))
        await self._sent()
        shown = "\n".join(f"{n}. {t}" for n, t in enumerate(tasks, 1))
        asked = ToolCallUpdate(
            tool_call_id=f"plan-{run_id}", title="Run this plan?", kind="switch_mode", status="pending",
            content=[tool_content(text_block(shown))], raw_input={"tasks": tasks},
        )  # fmt: skip
        answer = await self.asking.ask("plan", asked)
        if answer.failed:
            raise PlanReviewError(answer.why.removeprefix("rejected: "))
        if answer.allowed:
            return PlanAnswer.approve(tasks)
        return PlanAnswer.reject(None if answer.why == USER_REJECTED else answer.why)

    # --- the tool gate: a shell command under `ask` is asked about first -----------------
    def _call_rule(self, data: dict[str, Any]) -> str | None:
        """The auto-approve rule that lets this step run unasked (the executor skips the gate
        by the same rule), shown on the step."""
        tool = self.bench.registry.get(str(data.get("name")))
        if tool is None or tool.category not in ASKED_FIRST or self.handle is None:
            return None
        arguments = data.get("arguments")
        ctx = self.handle.agent.tool_context
        given = arguments if isinstance(arguments, dict) else {}
        return call_rule(ctx.settings, self.mode, ctx.approval, tool.name, given)

    def _gate(self, tool: Tool, arguments: dict[str, Any], ctx: ToolContext) -> str | None:
        """A shell command, or an MCP server's tool (whose effects nobody here can see or
        undo), is asked about before it runs under approval `ask`."""
        if tool.category not in ASKED_FIRST or approval_for(self.mode, ctx.approval).approval != "ask":
            return None
        call_id = self._current[0] if self._current is not None else f"gate-{tool.name}"
        kind: ToolKind
        if tool.category == "shell":
            title, kind = f"Run: {arguments.get('command') or tool.name}", "execute"
        else:
            title, kind = updates.call_title(tool.name, arguments), "other"
        asked = ToolCallUpdate(
            tool_call_id=call_id, title=title, kind=kind, status="pending", raw_input=arguments,
        )  # fmt: skip
        future = asyncio.run_coroutine_threadsafe(self.asking.ask(tool.name, asked), self._loop)
        woken = threading.Event()  # the answer, or the run's cancel: nothing polls
        future.add_done_callback(lambda _: woken.set())
        unsubscribe = ctx.cancel.subscribe(woken.set)
        try:
            woken.wait(self.settings.proposal_timeout_s)
        finally:
            unsubscribe()
        if not future.done() or future.cancelled():
            future.cancel()
            return "the run was cancelled" if ctx.cancel.is_set() else "no answer in time"
        answer = future.result()
        return None if answer.allowed else answer.why


def goal_text(blocks: list[Any], root: Path) -> str:
    """The prompt's blocks as the goal: its text, a linked file inside the workspace as a
    mention of it (`@path`: the agent's mentions read it into the first turn, through the
    client's `fs/read_text_file` where offered — DESIGN §9), one outside by its URI, an
    embedded resource's text attached below."""
    parts: list[str] = []
    attached: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", None)
        if kind == "text":
            parts.append(block.text)
        elif kind == "resource_link":
            shown = _shown(block.uri, root)
            inside = shown != block.uri and not any(c.isspace() for c in shown)
            parts.append(f"@{'./' if '/' not in shown else ''}{shown}" if inside else f"(see `{shown}`)")
        elif kind == "resource":
            resource = block.resource
            text = getattr(resource, "text", None)
            if isinstance(text, str):
                if len(text) > ATTACHED_CHARS:
                    text = text[:ATTACHED_CHARS] + "\n…[cut]"
                attached.append(f"The user attached `{_shown(resource.uri, root)}`:\n```\n{text}\n```")
    goal = " ".join(p.strip() for p in parts if p and p.strip())
    return "\n\n".join([goal, *attached]) if attached else goal


def _shown(uri: str, root: Path) -> str:
    """A file URI or path as a workspace-relative path where it is inside, else as given."""
    parsed = urlparse(uri)
    path = Path(unquote(parsed.path)) if parsed.scheme in ("file", "") else None
    if path is not None and path.is_absolute():
        with contextlib.suppress(ValueError):
            return path.resolve().relative_to(root).as_posix()
    return uri
