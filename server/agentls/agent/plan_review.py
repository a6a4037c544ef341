"""Plan review (DESIGN §9, approval `plan`): the run's first plan is put to the user before
its first task runs.

A front end supplies one hook, `PlanReview`: `await review(run_id, tasks)` → a
`PlanAnswer` — the tasks to run (as shown, or edited) or a rejection with the user's
comment. The LSP asks its client `agent/plan {runId, tasks}`, the CLI asks on the
terminal, ACP asks `session/request_permission`. `PlanAnswer.from_json` reads the
protocol's answer (`{tasks: [strings]}` or `{decision: "rejected", comment?}`); anything
else is a `PlanReviewError` saying what is wrong, and so is a hook that raises: the run
then fails with that reason (a structured failure, never a crash). `reviewed` is what the
task loop calls: it emits the `plan` events (`asked`, then `approved`, `edited` or
`rejected`), waits (bounded by the proposal timeout, cancellably) and ends the run
`cancelled` on a rejection (`PlanRejected`) or `failed` when the review fails.
Must not know: any front end, how the plan is shown, the loop's internals.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentls.agent.outcomes import PlanRejected, RunFailed
from agentls.llm.base import cancellable

if TYPE_CHECKING:
    from agentls.agent.context import RunContext

#: The most tasks an edited plan may hold (the planning turn's own cap is smaller: a user
#: may add tasks the model would not; the run's loop budget stays the limit), and the
#: longest title.
MAX_TASKS = 10
MAX_TITLE_CHARS = 500


class PlanReviewError(ValueError):
    """The plan could not be reviewed: a malformed answer, or the front end failed asking."""


@dataclass(frozen=True, slots=True)
class PlanAnswer:
    """The user's answer about a plan: `tasks` to run (None when rejected)."""

    tasks: tuple[str, ...] | None
    comment: str | None = None

    @property
    def rejected(self) -> bool:
        return self.tasks is None

    @classmethod
    def approve(cls, tasks: list[str] | tuple[str, ...]) -> PlanAnswer:
        """The tasks to run; PlanReviewError unless 1 to MAX_TASKS non-empty strings."""
        return cls(_checked(tasks))

    @classmethod
    def reject(cls, comment: str | None = None) -> PlanAnswer:
        return cls(None, (comment or "").strip() or None)

    @classmethod
    def from_json(cls, raw: Any) -> PlanAnswer:
        """`{tasks: [strings]}` or `{decision: "rejected", comment?}`; PlanReviewError else."""
        if not isinstance(raw, dict):
            raise PlanReviewError(f"the answer must be an object, got {type(raw).__name__}")
        decision = raw.get("decision")
        if decision is not None:
            if decision != "rejected":
                raise PlanReviewError(f"'decision' may only be \"rejected\", got {decision!r}")
            comment = raw.get("comment")
            if comment is not None and not isinstance(comment, str):
                raise PlanReviewError("'comment' must be a string")
            return cls.reject(comment)
        if "tasks" not in raw:
            raise PlanReviewError("the answer has neither 'tasks' nor 'decision'")
        return cls.approve(raw["tasks"])

    def to_dict(self) -> dict[str, Any]:
        if self.tasks is None:
            return {"decision": "rejected", **({"comment": self.comment} if self.comment else {})}
        return {"tasks": list(self.tasks)}


def _checked(tasks: Any) -> tuple[str, ...]:
    if not isinstance(tasks, list | tuple) or not all(isinstance(t, str) for t in tasks):
        raise PlanReviewError("'tasks' must be a list of strings")
    titles = [" ".join(t.split()) for t in tasks]
    titles = [t for t in titles if t]
    if not titles:
        raise PlanReviewError("'tasks' is empty: reject the plan instead")
    if len(titles) > MAX_TASKS:
        raise PlanReviewError(f"'tasks' holds {len(titles)} tasks; at most {MAX_TASKS}")
    if any(len(t) > MAX_TITLE_CHARS for t in titles):
        raise PlanReviewError(f"a task is longer than {MAX_TITLE_CHARS} characters")
    return tuple(titles)


#: The hook: (run id, the plan's task titles) → the answer. May raise; the run then fails.
PlanReview = Callable[[str, list[str]], Awaitable[PlanAnswer]]


async def reviewed(
    review: PlanReview,
    run: RunContext,
    titles: list[str],
    emit: Callable[[str, dict[str, Any]], None],
    cancel: asyncio.Event,
) -> list[str]:
    """The plan `titles` put to the user through `review`: the tasks to run. PlanRejected
    when rejected, RunFailed when the review fails or no answer comes in time."""
    timeout = run.settings.proposal_timeout_s
    emit("plan", {"action": "asked", "tasks": titles})
    try:
        answer = await asyncio.wait_for(cancellable(review(run.run_id, list(titles)), cancel), timeout)
    except asyncio.CancelledError:
        raise
    except TimeoutError:
        raise RunFailed(f"plan review: no answer about the plan in {timeout:g} s") from None
    except Exception as exc:  # PlanReviewError, or the front end's own failure
        raise RunFailed(f"plan review failed: {exc}") from exc
    if not isinstance(answer, PlanAnswer):
        raise RunFailed(f"plan review failed: the front end answered {type(answer).__name__}")
    if answer.tasks is None:
        emit("plan", {"action": "rejected", "comment": answer.comment})
        said = f": {answer.comment}" if answer.comment else ""
        raise PlanRejected(f"the user rejected the plan{said}")
    tasks = list(answer.tasks)
    emit("plan", {"action": "approved" if tasks == titles else "edited", "tasks": tasks})
    return tasks
