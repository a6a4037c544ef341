"""The exceptions that end a run or turn a call away, caught in one place (the loop).

`RunStop` subclasses carry the final status and a message for the user: `BudgetExhausted`
(steps, loops, tokens, time or cost ran out), `RunFailed` (too many bad replies, the
watchdog, a model error, a plan review that failed), `PlanRejected` (the user rejected the
plan under approval `plan`: the run ends `cancelled` before any task ran). `CallRejected` is raised by an `AfterParse` component to keep a
call from running and tell the model why (the run goes on); `TaskDone` ends the current
task as if the model had called finish, with the component's summary (the done check
still judges the run).
Must not know: components' internals, tools, models, LSP.
"""

from __future__ import annotations

from typing import ClassVar

from agentls.agent.run import Status


class RunStop(Exception):
    """Ends the run with `status` and `message`."""

    status: ClassVar[Status] = "failed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BudgetExhausted(RunStop):
    status = "budget_exhausted"


class RunFailed(RunStop):
    status = "failed"


class PlanRejected(RunStop):
    """The user rejected the run's plan (DESIGN §9): stopped by the user, nothing failed."""

    status = "cancelled"


class CallRejected(Exception):
    """The parsed call is not run; `message` goes back to the model as the tool result.
    `repeated`: it repeats a call whose answer the model already has (the policy then
    offers what moves on)."""

    def __init__(self, message: str, *, repeated: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.repeated = repeated


class TaskDone(Exception):
    """The current task ends with `summary` as its result, as with `finish`."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary
