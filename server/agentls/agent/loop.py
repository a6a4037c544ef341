"""The task loop (AgentGPT) with the planning/acting turn contract of DESIGN §6.

How the turns go for the run's model is its turn policy's (policy.py: full, small,
guided), chosen once; the loop itself reads the same for every model.
1. With a planning policy, a planning turn (no tools, `json_schema=TASKS_SCHEMA`) splits
   the goal into at most `max_initial_tasks` tasks; an empty first plan — or a policy
   without planning — makes the goal itself the one task.
2. The first pending task runs as acting turns (the policy's tools offered, exactly one
   call per turn) until the model calls `finish`: **a task ends with `finish`, and its
   summary becomes the task's result**.
3. After a call that changed a file, when the workspace's tests decide the goal and the
   mode may run them, they run: passing with nothing missing ends the run by itself (the
   goal is reached and checked), failing ones go back to the model with the result in
   compact form. A `finish` while they still fail is turned away with their failures
   (done_check.repair, a few times). A guided run's job call ends the run likewise when
   the done check finds nothing missing.
4. New tasks are asked for after each planned task, and after the last one only when
   something can follow (`_replans`): the last planning turn shows the model the run's
   diff with the goal, and `[]` means done. A run whose one task was the goal itself and
   left nothing missing ends without it.
5. The run completes when no task is pending and the done check finds nothing missing
   (builtin/done_check.py), and ends early on a budget (`max_loops` tasks executed, steps,
   tokens, time, cost), cancellation, a model error or `bad_reply_limit` bad replies in a
   row.

Bad replies (no call, unknown tool, unparsable or schema-failing arguments, a planning
reply that is no JSON array of strings) go back to the model — as a tool message with the
call's id when there is a call, else a user message — and the turn is retried. A tool's own
error is not a bad reply: it goes back as the tool message and resets nothing. A call the
watchdog turns away as a repetition makes the policy stop offering that tool in the task.
Every parsed call passes `AfterParse`; a call that ran passes `AfterExecute` if it
succeeded, else `ExecutionFailure` (a structured tool error, or an exception raised by a
command). Must not know: LSP, the editor, which provider the model is.
"""

from __future__ import annotations

import asyncio

from agentls.agent.actions import ActionFailure, ActionResult, changed_file
from agentls.agent.builtin.done_check import DoneCheckComponent
from agentls.agent.context import RunContext
from agentls.agent.execution import available, error_text, run_call
from agentls.agent.outcomes import BudgetExhausted, CallRejected, RunFailed, TaskDone
from agentls.agent.pipeline import Pipeline
from agentls.agent.plan_review import PlanReview, reviewed
from agentls.agent.policy import TurnPolicy, policy_for
from agentls.agent.prompts import bullets, render
from agentls.agent.protocols import AfterExecute, AfterParse, ExecutionFailure
from agentls.agent.replies import BadReply, parse_call, parse_tasks
from agentls.agent.run import Task, TaskStatus
from agentls.agent.turns import Emit, Turns
from agentls.llm.base import ChatModel, Message, ModelTurn


class TaskLoop:
    def __init__(
        self,
        run: RunContext,
        pipeline: Pipeline,
        model: ChatModel,
        emit: Emit,
        cancel: asyncio.Event,
        done_check: DoneCheckComponent | None = None,
        review: PlanReview | None = None,
    ) -> None:
        self.run = run
        self.review = review  # approval `plan`: the first plan is put to the user
        self.done_check = done_check
        self.pipeline = pipeline
        self.model = model
        self.emit = emit
        self.cancel = cancel
        self.bad_replies = 0
        #: how this run's turns go for its model (full, small, guided), chosen once
        self.policy: TurnPolicy = policy_for(model, run, done_check.impossible if done_check is not None else None)
        self.turns = Turns(run, pipeline, model, emit, cancel, self.policy)
        #: the run ended by itself (its summary): the change is there and checked
        self.ended: str | None = None

    # --- the loop --------------------------------------------------------------------
    async def execute(self) -> str:
        """Run the tasks to the end; return the model's summary (raises RunStop to stop)."""
        state, settings = self.run.state, self.run.settings
        first = (await self._plan(None) if self.policy.plans else None) or [self.run.goal]
        if self.review is None:
            self._add_tasks(first)
        else:
            plan = self._first_plan(first)
            self._add_tasks(await reviewed(self.review, self.run, plan, self.emit, self.cancel), cap=None)
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
            if self.ended is not None or (self.done_check is not None and await self.done_check.reached()):
                for rest in state.pending():
                    self._move(rest, "skipped")  # the goal is reached and checked: no more work
                break
            if await self._replans(task):
                self._add_tasks(await self._plan(task))
        if self.ended is not None:
            return self.ended
        if self.done_check is not None and (reason := await self.done_check.failure()):
            raise RunFailed(reason)
        return summary

    async def _replans(self, task: Task) -> bool:
        """Whether to ask for new tasks now: between planned tasks (a planning policy); after
        the last one only when something can follow — a planning policy's plan of several
        tasks (AgentGPT: new tasks from the result, only if needed), something the done
        check finds missing, or a goal that asks for several changes. A run whose one task
        was the goal itself and left nothing missing has nothing to follow."""
        check, several = self.done_check, self.run.reading.several
        if self.run.state.pending():
            return self.policy.plans
        if not self.policy.replans:
            return False
        missing = check is None or check.missing() is not None
        if not self.policy.plans:
            return several or missing
        return task.title != self.run.goal or missing or several

    def _move(self, task: Task, status: TaskStatus) -> None:
        task.move(status)
        data = {"index": self.run.state.tasks.index(task), **task.to_dict()}
        if task.result is not None:
            data["result"] = task.result
        self.emit("task", data)

    def _first_plan(self, titles: list[str]) -> list[str]:
        """The first plan as `_add_tasks` would keep it (capped, without repeats)."""
        kept: dict[str, str] = {}
        for title in titles:
            kept.setdefault(title.casefold(), title)
        return list(kept.values())[: self.run.settings.max_initial_tasks]

    def _add_tasks(self, titles: list[str], cap: int | None = -1) -> None:
        """Add the new tasks among `titles` (at most `cap`; -1: the settings' cap on new
        tasks, None: all of them)."""
        state = self.run.state
        seen = {t.title.casefold() for t in state.tasks}
        added = 0
        limit = self.run.settings.max_initial_tasks if cap == -1 else cap
        for title in titles:
            if (limit is not None and added >= limit) or title.casefold() in seen:
                continue
            seen.add(title.casefold())
            state.tasks.append(Task(title))
            added += 1
            self.emit("task", {"index": len(state.tasks) - 1, "title": title, "status": "pending"})

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
        messages, _ = await self.turns.prompt()
        messages.append({"role": "user", "content": prompt})
        while True:
            turn = await self.turns.complete(messages, None)
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
        run, policy = self.run, self.policy
        run.turn, run.task = "act", task
        policy.task_started()
        index = run.task_index()
        done = [f"{t.title}: {t.result}" for t in run.state.tasks if t.status == "done"]
        prompt = render(
            "acting",
            task=task.title,
            serves="" if task.title == run.goal else f"(It serves the goal: {run.goal})",
            earlier=f"\nResults of earlier tasks:\n{bullets(done)}\n" if done else "",
            how=policy.how(),
        )
        run.transcript.begin_task(index, {"role": "user", "content": prompt})
        while True:
            messages, commands = await self.turns.prompt()
            offered = policy.offered([c for c in commands.values() if available(c, run)])
            run.state.steps += 1
            turn = await self.turns.complete(messages, offered)
            if turn.content and turn.content.strip():
                self.emit("thought", {"task": index, "text": turn.content})
            try:
                call = parse_call(turn, commands, [spec["function"]["name"] for spec in offered])
            except BadReply as bad:
                self._record(index, turn, bad.call_id, error_text(bad.message, bad.tool))
                policy.called(bad.tool, False)
                self._bad(bad)
                continue
            self.bad_replies = 0
            try:
                await self.pipeline.run(AfterParse.after_parse, call)
                if call.name == "finish" and (failures := await self._repair()):
                    self.run.attempt += 1
                    raise CallRejected(render("repair", failures=failures))
            except TaskDone as ended:
                self.emit("status", {"status": run.state.status, "notice": ended.summary})
                return ended.summary
            except CallRejected as rejected:
                policy.called(call.name, False)
                if rejected.repeated and call.name in commands:
                    policy.repeated(commands[call.name])
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
            policy.called(call.name, result.ok)
            answer = result.message_text() + await self._after_change(call.name, result)
            self._record(index, turn, call.id, answer)
            if result.ok:
                await self.pipeline.run(AfterExecute.after_execute, result)
            else:
                await self.pipeline.run(ExecutionFailure.execution_failure, ActionFailure(result))
            if self.ended is not None:
                self.emit("status", {"status": run.state.status, "notice": self.ended})
                return self.ended
            if result.finished is not None:
                return result.finished.summary

    async def _repair(self) -> str | None:
        return await self.done_check.repair() if self.done_check is not None else None

    async def _after_change(self, tool: str, result: ActionResult) -> str:
        """After a call that changed a file: when the tests decide the goal and may run, run
        them — all passing with nothing missing ends the run by itself (`self.ended`),
        failing ones are told with the result; a guided run's job call ends the run when
        the done check finds nothing missing. What to add to the tool's result."""
        check = self.done_check
        if check is None or not result.ok or not changed_file(result):
            return ""
        reading = self.run.reading
        if reading.tests_matter and check.may_run_tests and check.missing() is None:
            outcome = await check.run_tests()
            if outcome is not None and outcome.passed and await check.failure() is None:
                self.ended = self.policy.summary(check.changed())
                return ""
            if outcome is not None and not outcome.passed:
                self.run.attempt += 1
                return "\n\n" + render("tests_now", failures=outcome.detail)
        if self.policy.may_end(tool, result.ok):
            reason = await check.failure()
            if reason is None:
                self.ended = self.policy.summary(check.changed())
                return ""
            return f"\n\nNot done yet: {reason.removeprefix('not done: ')}"
        return ""

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
