"""The component base class (Forge's `AgentComponent`) and the errors a component raises.

A component adds one capability to the agent by implementing one or more protocols
(protocols.py). It says which components it must run after (`run_after`, stored on the
instance, so two agents can order the same component class differently) and whether it
is enabled: a bool or a callable re-checked every time the pipeline reaches it, with a
`disabled_reason` for the user. Must not know: the loop, tools, models, LSP.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ComponentError(Exception):
    """Base of the errors a component raises to steer the pipeline (pipeline.py)."""

    def __init__(self, message: str, component: AgentComponent | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.component = component


class ComponentEndpointError(ComponentError):
    """This component failed this time; run the same component again (up to the limit)."""


class EndpointPipelineError(ComponentError):
    """The pipeline's whole result is unusable; restart it from a copy of its original
    arguments with the results gathered so far dropped (up to the limit)."""


class ComponentOrderError(ComponentError):
    """The components' `run_after` declarations form a cycle."""


class AgentComponent:
    """Base of every component. Subclasses implement protocols (protocols.py).

    `enabled` may be set to a bool or to a zero-argument callable; reading it evaluates
    the callable each time. Subclasses that define `__init__` should call
    `super().__init__()`; the attributes are created lazily if they do not.
    """

    def __init__(self) -> None:
        self._run_after: list[type[AgentComponent]] = []
        self._enabled: bool | Callable[[], bool] = True
        self._disabled_reason: str = ""

    # --- ordering ----------------------------------------------------------------
    def run_after(self, *types: type[AgentComponent]) -> AgentComponent:
        """Run this component after every component that is an instance of `types`."""
        for t in types:
            if not (isinstance(t, type) and issubclass(t, AgentComponent)):
                raise TypeError(f"run_after expects AgentComponent classes, got {t!r}")
            if t not in self.after:
                self.after.append(t)
        return self

    @property
    def after(self) -> list[type[AgentComponent]]:
        """The component classes this one runs after (this instance's own list)."""
        try:
            return self._run_after
        except AttributeError:
            self._run_after = []
            return self._run_after

    # --- enabling ----------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        value: Any = getattr(self, "_enabled", True)
        return bool(value() if callable(value) else value)

    @enabled.setter
    def enabled(self, value: bool | Callable[[], bool]) -> None:
        self._enabled = value

    @property
    def disabled_reason(self) -> str:
        return getattr(self, "_disabled_reason", "")

    @disabled_reason.setter
    def disabled_reason(self, reason: str) -> None:
        self._disabled_reason = reason

    def disable(self, reason: str, when: bool | Callable[[], bool] = True) -> AgentComponent:
        """Disable this component (always, or whenever `when()` is true) and say why."""
        self._enabled = (lambda: not when()) if callable(when) else not when
        self._disabled_reason = reason
        return self

    @property
    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.name}>"
