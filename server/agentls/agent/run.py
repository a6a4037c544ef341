"""The run as a state machine: `RunState` (the live status outsiders read), its `Task`s,
and the `EditorContext` a run may start from.

Run status: `running` → `completed` | `failed` | `cancelled` | `budget_exhausted`, once.
Task status: `pending` → `running` | `skipped`; `running` → `done` | `failed` | `skipped`.
Any other move is an `InvalidTransition`. `RunState.to_dict()` is the contract of
`agent/status` and `agentls run --json`: runId, sessionId (DESIGN §9: the session the run
belongs to; null for a run started outside one), status, goal, tasks[{title, status}],
steps, proposals, summary, verification (DESIGN §9: null while running) and usage
{promptTokens, completionTokens, modelSeconds, contextWindow, contextUsed} (plus `cost` when
the provider reports one, `estimated: true` when some turn's tokens were counted from its
characters because the provider reported none).
Must not know: the loop, components, tools, LSP.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from agentls.llm.base import Usage

Status = Literal["running", "completed", "failed", "cancelled", "budget_exhausted"]
TaskStatus = Literal["pending", "running", "done", "failed", "skipped"]

RUN_TRANSITIONS: dict[str, frozenset[str]] = {
    "running": frozenset({"completed", "failed", "cancelled", "budget_exhausted"}),
    "completed": frozenset(),
    "failed": frozenset(),
    "cancelled": frozenset(),
    "budget_exhausted": frozenset(),
}
TASK_TRANSITIONS: dict[str, frozenset[str]] = {
    "pending": frozenset({"running", "skipped"}),
    "running": frozenset({"done", "failed", "skipped"}),
    "done": frozenset(),
    "failed": frozenset(),
    "skipped": frozenset(),
}


class InvalidTransition(RuntimeError):
    """A status change the state machine does not allow."""


@dataclass(frozen=True, slots=True)
class EditorContext:
    """Where the user started the run: a workspace-relative path, the selection's range
    ((line, character), (line, character)), 0-based, the selected text, the problems
    the editor reported there (e.g. a diagnostic the user asked to fix), one line each,
    and the mentions the client picked beside the goal (`@src/app.py`, `@diff`; DESIGN §9)."""

    path: str
    range: tuple[tuple[int, int], tuple[int, int]] | None = None
    text: str | None = None
    problems: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()


@dataclass(slots=True)
class Task:
    title: str
    status: TaskStatus = "pending"
    result: str | None = None

    def move(self, status: TaskStatus) -> None:
        if status not in TASK_TRANSITIONS[self.status]:
            raise InvalidTransition(f"task {self.title!r}: {self.status} → {status} is not allowed")
        self.status = status

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "status": self.status}


@dataclass(slots=True)
class RunState:
    run_id: str
    goal: str
    status: Status = "running"
    tasks: list[Task] = field(default_factory=list)
    steps: int = 0  # acting turns taken
    proposals: list[str] = field(default_factory=list)  # ids, in creation order
    summary: str | None = None
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    loops: int = 0  # task-loop iterations
    started_at: float = field(default_factory=time.monotonic)
    #: DESIGN §9's `verification` once the run has ended ({verified, checks, unverified?})
    verification: dict[str, Any] | None = None
    model_seconds: float = 0.0  # time spent in model turns
    context_window: int = 0  # the model's window, in tokens
    context_used: int = 0  # the prompt of the last turn, in tokens
    session_id: str | None = None  # the session the run belongs to (sessions.py)
    usage_estimated: bool = False  # some turn's tokens were estimated (the provider said none)

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started_at

    def end(self, status: Status, *, summary: str | None = None, error: str | None = None) -> None:
        if status not in RUN_TRANSITIONS[self.status]:
            raise InvalidTransition(f"run {self.run_id}: {self.status} → {status} is not allowed")
        self.status = status
        if summary is not None:
            self.summary = summary
        if error is not None:
            self.error = error

    def add_usage(self, usage: Usage) -> None:
        self.usage.prompt_tokens += usage.prompt_tokens
        self.usage.completion_tokens += usage.completion_tokens
        if usage.cost is not None:
            self.usage.cost = (self.usage.cost or 0.0) + usage.cost

    @property
    def tokens(self) -> int:
        return self.usage.prompt_tokens + self.usage.completion_tokens

    def pending(self) -> list[Task]:
        return [t for t in self.tasks if t.status == "pending"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "runId": self.run_id,
            "sessionId": self.session_id,
            "status": self.status,
            "goal": self.goal,
            "tasks": [t.to_dict() for t in list(self.tasks)],
            "steps": self.steps,
            "proposals": list(self.proposals),
            "summary": self.summary,
            "verification": self.verification,
            "usage": self.usage_dict(),
        }

    def usage_dict(self) -> dict[str, Any]:
        return {
            "promptTokens": self.usage.prompt_tokens,
            "completionTokens": self.usage.completion_tokens,
            "modelSeconds": round(self.model_seconds, 2),
            "contextWindow": self.context_window,
            "contextUsed": self.context_used,
            **({"cost": self.usage.cost} if self.usage.cost is not None else {}),
            **({"estimated": True} if self.usage_estimated else {}),
        }
