"""Which sandbox the shell tools use: the `shellSandbox` setting resolved on this machine.

`auto` picks the strongest backend that works here (bubblewrap, then Landlock) and says
which; `bubblewrap` and `landlock` insist on that one; `none` runs commands unconfined
and is only ever the user's explicit choice. When nothing works and `none` was not
chosen there is no config: `SandboxUnavailable` carries the reason, the shell tools are
listed as disabled with it and refuse to run (a `permission` error).
Must not know: any particular tool, the agent, LSP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from agentls.tools.permissions import SHELL
from agentls.tools.sandbox.bubblewrap import bubblewrap_status
from agentls.tools.sandbox.landlock import landlock_status

if TYPE_CHECKING:
    from agentls.tools.base import ToolContext

SandboxKind = Literal["bubblewrap", "landlock", "none"]
SandboxChoice = Literal["auto", "bubblewrap", "landlock", "none"]
CHOICES: tuple[str, ...] = get_args(SandboxChoice)
OPT_IN = 'set "shellSandbox": "none" to run shell commands without an OS sandbox'


class SandboxUnavailable(ValueError):
    """The chosen sandbox cannot run here; the message says why and what to do."""


def backend_status(kind: str) -> tuple[bool, str]:
    if kind == "bubblewrap":
        exe, reason = bubblewrap_status()
        return exe is not None, reason
    if kind == "landlock":
        return landlock_status()
    return True, "no OS sandbox (chosen by the user)"


def resolve_kind(choice: str) -> tuple[SandboxKind, str]:
    """(kind, why) for a setting value, or SandboxUnavailable."""
    if choice not in CHOICES:
        raise SandboxUnavailable(
            f"unknown shellSandbox {choice!r}; expected one of {', '.join(CHOICES)}"
        )
    if choice == "none":
        return "none", 'shellSandbox is "none": commands run WITHOUT an OS sandbox'
    tried: list[str] = []
    for kind in ("bubblewrap", "landlock") if choice == "auto" else (choice,):
        ok, reason = backend_status(kind)
        if ok:
            why = (
                f"auto: {'; '.join(tried)}" if tried else ("auto" if choice == "auto" else "chosen")
            )
            return kind, why  # type: ignore[return-value]
        tried.append(f"{kind}: {reason}")
    what = (
        "no OS sandbox works here"
        if choice == "auto"
        else f"the {choice} sandbox does not work here"
    )
    raise SandboxUnavailable(f"{what} ({'; '.join(tried)}); {OPT_IN}")


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """How shell tools confine their processes.

    `kind` may be a choice (`auto` resolves here); a backend that does not work raises
    SandboxUnavailable. `writable_shared`: dependency folders (.venv, node_modules) of the
    real workspace stay writable when the command runs in a scratch copy (installs).
    """

    kind: SandboxChoice = "auto"
    network: bool = False
    scratch: bool = False
    writable_shared: bool = False
    why: str = ""

    def __post_init__(self) -> None:
        if self.kind == "auto" or not self.why:
            kind, why = resolve_kind(self.kind)
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "why", why)

    def describe(self) -> str:
        if self.kind == "none":
            return 'none: NO OS sandbox (shellSandbox "none"): commands can read, write and connect anywhere agentls can'
        place = "scratch copy of the workspace" if self.scratch else "writable workspace"
        net = "network allowed" if self.network else "no network"
        if self.kind == "landlock" and not self.network:
            net = "no TCP; a new network namespace when root"
        return f"{self.kind} ({self.why}; system folders read-only, home hidden, {place}, {net})"


def sandbox_for(ctx: ToolContext | None) -> SandboxConfig:
    """The context's sandbox: `ctx.sandbox` (a SandboxConfig or a `shellSandbox` value),
    else the settings' `shellSandbox`, else auto. SandboxUnavailable when it cannot run."""
    chosen = None if ctx is None else ctx.sandbox
    if isinstance(chosen, SandboxConfig):
        return chosen
    if chosen is None and ctx is not None:
        chosen = getattr(ctx.settings, "shell_sandbox", None)
    return SandboxConfig(kind=chosen or "auto")


def sandbox_status(ctx: ToolContext | None) -> tuple[bool, str | None]:
    """For a shell tool's `enabled()`: (True, None) or (False, the reason)."""
    try:
        sandbox_for(ctx)
    except SandboxUnavailable as exc:
        return False, str(exc)
    return True, None


def describe_sandbox(config: SandboxConfig | str | None = None) -> str:
    """One line for `agentls tools`, e.g. 'bubblewrap (auto; ...)', or why none works."""
    try:
        if not isinstance(config, SandboxConfig):
            config = SandboxConfig(kind=config or "auto")  # type: ignore[arg-type]
    except SandboxUnavailable as exc:
        return f"unavailable: {exc} (shell tools disabled)"
    return config.describe()


def unconfined_notice(ctx: ToolContext) -> str | None:
    """What a run states once (progress stream and trace) when its shell commands would
    run without an OS sandbox because the user chose `shellSandbox: "none"`."""
    if SHELL not in ctx.permissions:
        return None
    try:
        config = sandbox_for(ctx)
    except SandboxUnavailable:
        return None  # the shell tools are disabled, and say why when listed
    if config.kind != "none":
        return None
    return (
        'shellSandbox is "none": this run\'s shell commands run WITHOUT an OS sandbox '
        "(they can read, write and connect wherever agentls can)"
    )
