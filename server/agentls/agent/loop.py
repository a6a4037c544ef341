"""The task loop (AgentGPT) with the planning/acting turn contract of DESIGN §6.

1. A planning turn (no tools, `json_schema=TASKS_SCHEMA`) splits the goal into at most
   `max_initial_tasks` tasks; an empty first plan makes the goal itself the one task (a
   goal is never "nothing to do" — small models often answer `[]`). A small model skips
   this turn (the goal is its one task: its plans split a fix into read/read/edit tasks
   and the later ones undid the fix) and is offered fewer tools (focus.py); a tiny model's
   run is guided (guide.py): one task, no replanning, its job's tool per turn.
2. The first pending task runs as acting turns (the enabled commands offered as tools,
   exactly one call per turn) until the model calls `finish`: **a task ends with
   `finish`, and its summary becomes the task's result**.
3. After every task — unless the done check sees the goal's tests now pass (then the
   pending tasks are skipped and the run ends) — a planning turn is asked for new tasks given that result, "only if
   needed" (`[]` = none; at most `max_initial_tasks`; titles already listed are dropped).
4. The run completes when no task is pending (its summary: the last task's result) and
   the done check finds nothing missing (builtin/done_check.py: a goal that asks for a
   change and a run that changed nothing end `failed`; the last planning turn shows the
   model the run's diff with the goal, and `[]` means done), and ends early on a budget (`max_loops` tasks executed, steps, tokens, time, cost),
   cancellation, a model error or `bad_reply_limit` bad replies in a row.

Bad replies (no call, unknown tool, unparsable or schema-failing arguments, a planning
reply that is no JSON array of strings) go back to the model — as a tool message with the
call's id when there is a call, else a user message — and the turn is retried. A tool's own
error is not a bad reply: it goes back as the tool message and resets nothing.
Every parsed call passes `AfterParse`; a call that ran passes `AfterExecute` if it
succeeded, else `ExecutionFailure` (a structured tool error, or an exception raised by a
command). Must not know: LSP, the editor, which provider the model is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agentls.agent.actions import ActionFailure
from agentls.agent.builtin.done_check import DoneCheckComponent
from agentls.agent.command import Command
from agentls.agent.context import RunContext
from agentls.agent.execution import available, error_text, run_call, unavailable_lines
from agentls.agent.focus import focus, is_small
from agentls.agent.guide import Guide, is_guided
from agentls.agent.outcomes import BudgetExhausted, CallRejected, RunFailed, TaskDone
from agentls.agent.pipeline import Pipeline
from agentls.agent.prompts import bullets, render
from agentls.agent.protocols import (
    AfterExecute,
    AfterParse,
    CommandProvider,
    DirectiveProvider,
    ExecutionFailure,
    MessageProvider,
)
from agentls.agent.replies import BadReply, parse_call, parse_tasks
from agentls.agent.run import Task, TaskStatus
from agentls.llm.base import TASKS_SCHEMA, ChatModel, Message, ModelTurn, ToolSpec, cancellable

Emit = Callable[[str, dict[str, Any]], None]


class TaskLoop:
    def __init__(
        self,
        run: RunContext,
        pipeline: Pipeline,
        model: ChatModel,
        emit: Emit,
        cancel: asyncio.Event,
        done_check: DoneCheckComponent | None = None,
    ) -> None:
        self.run = run
        self.done_check = done_check
        self.pipeline = pipeline
        self.model = model
        self.emit = emit
        self.cancel = cancel
        self.bad_replies = 0
        self._duplicates: set[str] = set()
        #: a tiny model's guided turns (guide.py)
        self.guide = (
            Guide(run, done_check.impossible if done_check is not None else None)
            if is_guided(model)
            else None
        )

    # --- the loop --------------------------------------------------------------------
    async def execute(self) -> str:
        """Run the tasks to the end; return the run's summary (raises RunStop to stop)."""
        state, settings = self.run.state, self.run.settings
        skip = is_small(self.model)
        self._add_tasks((None if skip else await self._plan(None)) or [self.run.goal])
        summary = ""
        while pending := state.pending():
            if state.loops >= settings.max_loops:
                raise BudgetExhausted(
                    f"loop budget exhausted: {state.loops} tasks were executed and "
                    f"{len(pending)} remain"
                )
            state.loops += 1
            task = pending[0]
            self._move(task, "running")
            summary = await self._act(task)
            task.result = summary
            self._move(task, "done")
            if self.guide is not None:
                break  # a guided run's goal is its one task: no replanning turn
            if self.done_check is not None and await self.done_check.reached():
                for rest in state.pending():
                    self._move(rest, "skipped")  # the goal's tests pass: no more work
                break
            self._add_tasks(await self._plan(task))
        if self.guide is not None and self.guide.ended:
            return summary  # the done check found nothing missing just now (_guided_end)
        if self.done_check is not None and (reason := await self.done_check.failure()):
            raise RunFailed(reason)
        return summary

    def _move(self, task: Task, status: TaskStatus) -> None:
        task.move(status)
        data = {"index": self.run.state.tasks.index(task), **task.to_dict()}
        if task.result is not None:
            data["result"] = task.result
        self.emit("task", data)

    def _add_tasks(self, titles: list[str]) -> None:
        state = self.run.state
        seen = {t.title.casefold() for t in state.tasks}
        added = 0
        for title in titles:
            if added >= self.run.settings.max_initial_tasks or title.casefold() in seen:
                continue
            seen.add(title.casefold())
            state.tasks.append(Task(title))
            added += 1
            self.emit("task", {"index": len(state.tasks) - 1, "title": title, "status": "pending"})

    # --- turns -------------------------------------------------------------------------
    async def _turn(self) -> tuple[list[Message], dict[str, Command]]:
        """The messages of the next turn (system prompt + providers) and the commands."""
        if self.run.tools.cancel.is_set():
            raise asyncio.CancelledError("run cancelled")
        commands = await self._commands()
        constraints = await self.pipeline.run(DirectiveProvider.get_constraints)
        resources = await self.pipeline.run(DirectiveProvider.get_resources)
        practices = await self.pipeline.run(DirectiveProvider.get_best_practices)
        off = unavailable_lines([c for c in commands.values() if not available(c, self.run)])
        if is_small(self.model):
            off = []  # a small model does better with a short prompt than with this list
        system = render(
            "system",
            goal=self.run.goal,
            mode=self.run.settings.mode,
            constraints=bullets(constraints),
            resources=bullets(resources),
            best_practices=bullets(practices),
            unavailable=f"Tools not available in this run:\n{bullets(off)}" if off else "",
        )
        messages = await self.pipeline.run(MessageProvider.get_messages)
        return [{"role": "system", "content": system}, *messages], commands

    async def _commands(self) -> dict[str, Command]:
        out: dict[str, Command] = {}
        for cmd in await self.pipeline.run(CommandProvider.get_commands):
            if not isinstance(cmd, Command):
                raise TypeError(f"get_commands yielded {cmd!r}, not a Command")
            if cmd.name in out:
                if cmd.name not in self._duplicates:
                    self._duplicates.add(cmd.name)
                    self.pipeline.trace.append(
                        f"⚠️ command {cmd.name} offered twice; the first kept"
                    )
                continue
            out[cmd.name] = cmd
        return out

    async def _complete(self, messages: list[Message], tools: list[ToolSpec] | None) -> ModelTurn:
        schema = None if tools is not None else TASKS_SCHEMA
        state = self.run.state
        phase = "planning" if tools is None else "acting"
        self.emit("status", {"status": state.status, "phase": phase, "steps": state.steps})
        try:
            turn: ModelTurn = await cancellable(
                self.model.complete(messages, tools=tools, json_schema=schema), self.cancel
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # ModelError, or a provider's own failure
            raise RunFailed(f"model error ({self.model.name}): {exc}") from exc
        self.run.state.add_usage(turn.usage)
        if turn.notice:  # e.g. the endpoint's tool calls moved to another protocol
            self.emit("status", {"status": state.status, "phase": phase, "notice": turn.notice})
        return turn

    def _bad(self, bad: BadReply) -> None:
        self.bad_replies += 1
        self.emit("error", {"type": "bad_reply", "message": bad.message, "count": self.bad_replies})
        limit = self.run.settings.bad_reply_limit
        if self.bad_replies >= limit:
            raise RunFailed(
                f"the model gave {self.bad_replies} bad replies in a row (limit {limit}); "
                f"the last one: {bad.message}"
            )

    # --- planning ------------------------------------------------------------------------
    async def _plan(self, last: Task | None) -> list[str]:
        self.run.turn, self.run.task = "plan", None
        tasks, cap = self.run.state.tasks, self.run.settings.max_initial_tasks
        if last is None:
            prompt = render("planning", goal=self.run.goal, max_tasks=cap)
        else:
            prompt = render(
                "replanning",
                goal=self.run.goal,
                done=bullets([f"{t.title}: {t.result}" for t in tasks if t.status == "done"]),
                pending=bullets([t.title for t in tasks if t.status == "pending"]),
                last_task=last.title,
                result=last.result or "(no result)",
                changes=self.done_check.changes() if self.done_check else "(not tracked)",
                max_tasks=cap,
            )
        messages, _ = await self._turn()
        messages.append({"role": "user", "content": prompt})
        while True:
            turn = await self._complete(messages, None)
            try:
                titles = parse_tasks(turn.content)
            except BadReply as bad:
                self._bad(bad)
                messages += [
                    {"role": "assistant", "content": turn.content or ""},
                    {"role": "user", "content": bad.message},
                ]
                continue
            self.bad_replies = 0
            return titles

    # --- acting ----------------------------------------------------------------------------
    async def _act(self, task: Task) -> str:
        run = self.run
        run.turn, run.task = "act", task
        index = run.task_index()
        done = [f"{t.title}: {t.result}" for t in run.state.tasks if t.status == "done"]
        prompt = render(
            "acting",
            task=task.title,
            serves="" if task.title == run.goal else f"(It serves the goal: {run.goal})",
            earlier=f"\nResults of earlier tasks:\n{bullets(done)}\n" if done else "",
            how=self.guide.how() if self.guide is not None else "",
        )
        run.transcript.begin_task(index, {"role": "user", "content": prompt})
        while True:
            messages, commands = await self._turn()
            usable = [c for c in commands.values() if available(c, run)]
            if self.guide is not None:
                offered = self.guide.offered([c.spec() for c in usable])
            else:
                offered = [c.spec() for c in (focus(usable, run.goal) if is_small(self.model) else usable)]
            run.state.steps += 1
            turn = await self._complete(messages, offered)
            if turn.content and turn.content.strip():
                self.emit("thought", {"task": index, "text": turn.content})
            try:
                call = parse_call(turn, commands, [spec["function"]["name"] for spec in offered])
            except BadReply as bad:
                self._record(index, turn, bad.call_id, error_text(bad.message, bad.tool))
                if self.guide is not None:
                    self.guide.called(bad.tool, False)
                self._bad(bad)
                continue
            self.bad_replies = 0
            try:
                await self.pipeline.run(AfterParse.after_parse, call)
            except TaskDone as done:
                self.emit("status", {"status": run.state.status, "notice": done.summary})
                return done.summary
            except CallRejected as rejected:
                if self.guide is not None:
                    self.guide.called(call.name, False)
                self._record(index, turn, call.id, error_text(rejected.message, call.name))
                self.emit("error", {"type": "call_rejected", "message": rejected.message})
                continue
            self.emit(
                "tool_call",
                {"task": index, "id": call.id, "name": call.name, "arguments": call.arguments},
            )
            result = await run_call(commands[call.name], call, run, self.cancel)
            self.emit("tool_result", {"task": index, "id": call.id, "name": call.name,
                                      "durationMs": round(result.duration_ms, 1), **result.to_dict()})  # fmt: skip
            answer = result.message_text()
            if self.guide is not None:
                self.guide.called(call.name, result.ok)
            ended, why = await self._guided_end(call.name, result.ok)
            if why is not None:
                answer += f"\n\nNot done yet: {why}"
            self._record(index, turn, call.id, answer)
            if result.ok:
                await self.pipeline.run(AfterExecute.after_execute, result)
            else:
                failure = ActionFailure(result)
                await self.pipeline.run(ExecutionFailure.execution_failure, failure)
            if ended is not None:
                self.emit("status", {"status": run.state.status, "notice": ended})
                return ended
            if result.finished is not None:
                return result.finished.summary

    async def _guided_end(self, tool: str, ok: bool) -> tuple[str | None, str | None]:
        """For a guided run after its job's tool succeeded: (the run's summary, None) when
        the done check finds nothing missing, else (None, what is missing)."""
        guide, check = self.guide, self.done_check
        if guide is None or check is None or not guide.may_end(tool, ok):
            return None, None
        reason = await check.failure()
        if reason is not None:
            return None, reason.removeprefix("not done: ")
        guide.ended = True
        return guide.summary(check.changed()), None

    def _record(self, index: int, turn: ModelTurn, call_id: str | None, answer: str) -> None:
        messages: list[Message] = [turn.as_message()]
        if not turn.tool_calls:
            messages[0]["content"] = turn.content or ""  # an assistant message needs content
            messages.append({"role": "user", "content": answer})
        for c in turn.tool_calls:
            content = (
                answer
                if c.id == call_id
                else error_text(
                    "Not run: exactly one tool call per turn; call it again on its own.", c.name
                )
            )
            messages.append({"role": "tool", "tool_call_id": c.id, "content": content})
        self.run.transcript.add(index, messages)
