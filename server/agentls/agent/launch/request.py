"""What a front end asks for when it starts a run, checked in one place.

A `RunRequest` holds the goal, the mode, approval and step budget asked for (None: the
settings'), and the editor context the run starts from. `check(settings)` gives the run's
`RunSettings` or raises `RunRequestError` naming the bad field as the protocols spell it
(`goal`, `mode`, `approval`, `maxSteps`): the LSP answers it with JSON-RPC -32602, the CLI
with exit code 2. An approval asked for explicitly must be one the approval rule
(`permissions.approval_for`) follows in that mode; a front end whose policy is to go on
with less (the CLI warns and asks instead of applying) asks the rule first and passes
what it follows. (Sessions, DESIGN §9, will add a session id here.)
Must not know: any front end, how its params arrive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from agentls.agent.context import RunSettings
from agentls.agent.run import EditorContext
from agentls.settings import Settings
from agentls.tools.permissions import APPROVALS, MODES, Approval, approval_for

#: The largest step budget a request may ask for.
MAX_STEPS_LIMIT = 1000


class RunRequestError(ValueError):
    """A request that cannot start a run: the message says why, `field` names the culprit
    and `data` holds what else a client may need (the allowed values)."""

    def __init__(self, message: str, field: str, **data: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.data = data


@dataclass(frozen=True, slots=True)
class RunRequest:
    goal: str
    mode: str | None = None
    approval: str | None = None
    max_steps: int | None = None
    editor: EditorContext | None = None

    @property
    def text(self) -> str:
        """The goal as the run takes it (surrounding white space dropped)."""
        return self.goal.strip() if isinstance(self.goal, str) else ""

    def check(self, settings: Settings) -> RunSettings:
        """The run's settings: the request's values over `settings`; RunRequestError for
        the first bad field."""
        if not self.text:
            raise RunRequestError("the goal must not be empty", "goal")
        mode = self.mode or settings.mode
        if mode not in MODES:
            allowed = list(MODES)
            raise RunRequestError(
                f"unknown mode {mode!r}; expected one of {', '.join(allowed)}", "mode", allowed=allowed
            )
        approval = self.approval
        if approval is not None:
            if approval not in APPROVALS:
                allowed = list(APPROVALS)
                message = f"unknown approval {approval!r}; expected one of {', '.join(allowed)}"
                raise RunRequestError(message, "approval", allowed=allowed)
            grant = approval_for(mode, cast(Approval, approval))
            if grant.changed:  # asked for explicitly: followed as asked, or refused
                raise RunRequestError(grant.reasons[0], "approval")
        steps = self.max_steps
        if steps is not None and (
            isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_STEPS_LIMIT
        ):
            raise RunRequestError(
                f"maxSteps must be from 1 to {MAX_STEPS_LIMIT}, got {steps!r}", "maxSteps"
            )
        return RunSettings.from_settings(settings, mode=mode, approval=approval, max_steps=steps)
