"""Permissions: five flags and four modes, and the approval rule. The policy is data and
names no tool.

Each tool declares the flags it needs (possibly depending on its input); the executor
checks them against the run's permission set. `approval_for` is the one rule saying which
approval a run or call follows — `ask` (default), `auto` (apply at once; only in `dev` and
`full`), `never` (propose only), `plan` (the run's plan is put to the user before its first
task, then it goes on as `ask`: DESIGN §9) — given its mode and whether anyone can be asked,
and why it differs from the one asked for. Front ends put their policy on top (the CLI warns and
goes on, the LSP refuses an explicit `auto` it would not follow, a tool tells the model).
Must not know: any particular tool, any front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class Permission(StrEnum):
    FILESYSTEM_READ = "filesystemRead"
    FILESYSTEM_WRITE = "filesystemWrite"
    SHELL_EXECUTION = "shellExecution"
    GIT_WRITE = "gitWrite"
    NETWORK = "network"


READ = Permission.FILESYSTEM_READ
WRITE = Permission.FILESYSTEM_WRITE
SHELL = Permission.SHELL_EXECUTION
GIT_WRITE = Permission.GIT_WRITE
NETWORK = Permission.NETWORK

#: The contract: mode name → granted flags.
MODES: dict[str, frozenset[Permission]] = {
    "read-only": frozenset({READ}),
    "dev": frozenset({READ, WRITE, NETWORK}),
    "ci": frozenset({READ, SHELL}),
    "full": frozenset(Permission),
}

#: Modes in which approval "auto" may apply edits at once.
AUTO_APPROVE_MODES = frozenset({"dev", "full"})

Approval = Literal["ask", "auto", "never", "plan"]
APPROVALS: tuple[Approval, ...] = ("ask", "auto", "never", "plan")
#: What `plan` follows once the plan is reviewed: each proposal is asked about.
PLAN_THEN: Approval = "ask"


@dataclass(frozen=True, slots=True)
class ApprovalRule:
    """`asked` becomes `becomes` when `when` holds (a name in `_CONDITIONS`)."""

    asked: Approval
    when: str
    becomes: Approval
    why: str  # formatted with mode=


#: The approval rule, applied in order (a later rule sees what an earlier one made).
APPROVAL_RULES: tuple[ApprovalRule, ...] = (
    ApprovalRule(
        "auto",
        "mode_forbids_auto",
        "ask",
        "approval 'auto' is only allowed in modes dev and full, not in {mode!r}",
    ),
    ApprovalRule("ask", "no_one_to_ask", "never", "there is no one to ask"),
)

_CONDITIONS = {
    "mode_forbids_auto": lambda mode, interactive: mode not in AUTO_APPROVE_MODES,
    "no_one_to_ask": lambda mode, interactive: not interactive,
}


@dataclass(frozen=True, slots=True)
class ApprovalGrant:
    """The approval followed, and the rules (by `when`) that changed the one asked for;
    `plan`: the run's plan is put to the user first (approval `plan`, someone to ask)."""

    asked: Approval
    approval: Approval
    applied: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    plan: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def approval_for(mode: str, asked: Approval, *, interactive: bool = True) -> ApprovalGrant:
    """The approval a run or call in `mode` follows when `asked` was asked for;
    `interactive`: someone can be asked about a proposal (an editor, a terminal). `plan`
    follows `ask` (PLAN_THEN) once the plan is reviewed; that is no change of approval."""
    approval = PLAN_THEN if asked == "plan" else asked
    applied: list[str] = []
    reasons: list[str] = []
    for rule in APPROVAL_RULES:
        if approval == rule.asked and _CONDITIONS[rule.when](mode, interactive):
            approval = rule.becomes
            applied.append(rule.when)
            reasons.append(rule.why.format(mode=mode))
    plan = asked == "plan" and approval == PLAN_THEN
    return ApprovalGrant(asked, approval, tuple(applied), tuple(reasons), plan)


class PermissionSet:
    """The flags granted to one run or one call."""

    __slots__ = ("flags", "mode")

    def __init__(self, flags: frozenset[Permission], mode: str | None = None) -> None:
        self.flags = flags
        self.mode = mode

    @classmethod
    def for_mode(cls, mode: str) -> PermissionSet:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        return cls(MODES[mode], mode)

    def allows(self, needed: frozenset[Permission]) -> bool:
        return needed <= self.flags

    def missing(self, needed: frozenset[Permission]) -> list[str]:
        return sorted(p.value for p in needed - self.flags)

    def __contains__(self, flag: Permission) -> bool:
        return flag in self.flags

    def __repr__(self) -> str:
        return f"PermissionSet({self.mode or sorted(p.value for p in self.flags)})"
