"""What one run is given and shares with its built-in components.

`RunSettings` are the run's knobs; `RunContext` is the run's shared, live view — goal
and its reading, settings, state, transcript, the editor context, the ToolContext, which
kind of turn is being built and for which task — that the built-in components read.
Must not know: the loop's internals, LSP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from agentls.agent.goal import GoalReading
from agentls.agent.run import EditorContext, RunState, Task
from agentls.agent.transcript import Transcript
from agentls.settings import Settings
from agentls.tools.base import ToolContext
from agentls.tools.permissions import Approval

TurnKind = Literal["plan", "act"]


@dataclass
class RunSettings:
    mode: str = "dev"
    approval: Approval = "ask"
    max_steps: int = 30  # acting turns
    max_loops: int = 10  # task-loop iterations
    max_initial_tasks: int = 3  # also the cap on new tasks per planning turn
    token_budget: int | None = None  # prompt + completion tokens over the run
    time_budget_s: float | None = None
    cost_budget: float | None = None  # when the provider reports costs
    proposal_timeout_s: float = 600.0
    bad_reply_limit: int = 3
    watchdog_repeats: int = 2  # the same call this many times in a row → warned; again → stopped
    history_tokens: int | None = None  # default: half the model's context window
    retry_limit: int = 3  # run_pipeline's per-component and per-pipeline limit
    source: Settings = field(default_factory=Settings)  # the tools read theirs (web, sandbox)

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> RunSettings:
        """From the `agentls` settings section (mode, approval, maxSteps, proposalTimeoutS)."""
        values: dict[str, Any] = {
            "mode": settings.mode,
            "approval": settings.approval,
            "max_steps": settings.max_steps,
            "proposal_timeout_s": settings.proposal_timeout_s,
            "source": settings,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


@dataclass
class RunContext:
    goal: str
    settings: RunSettings
    state: RunState
    tools: ToolContext
    context_tokens: int  # the model's window
    editor: EditorContext | None = None
    #: the earlier runs of the run's session, oldest first (sessions.py: Session.earlier)
    earlier: tuple[dict[str, Any], ...] = ()
    transcript: Transcript = field(default_factory=Transcript)
    turn: TurnKind = "plan"
    task: Task | None = None
    #: the goal as read once at the start of the run (goal/reading.py)
    reading: GoalReading = field(default_factory=lambda: GoalReading(goal=""))
    #: tries at the change whose checks (tests, examples) failed so far
    attempt: int = 0
    #: each try is written afresh from the description: the prompt shows the files the
    #: change writes as the run began, and earlier failed versions only as their failures
    #: (the turn policy sets it: a small model copies the version it sees)
    fresh_tries: bool = False
    #: characters every prompt of the run carries besides its turn: the project's rules and
    #: the goal's mentions (set before the first turn; the history makes room for them)
    context_chars: int = 0

    @property
    def run_id(self) -> str:
        return self.state.run_id

    @property
    def named_files(self) -> list[str]:
        """Existing files the goal (or the editor context) names."""
        return self.reading.files

    @property
    def new_files(self) -> list[str]:
        """Files the goal asks to create."""
        return self.reading.new_files

    @property
    def missing_files(self) -> list[str]:
        """Files the goal takes as existing that the workspace lacks."""
        return self.reading.missing_files

    def task_index(self) -> int:
        return next((i for i, t in enumerate(self.state.tasks) if t is self.task), -1)
