"""Permissions: five flags and four modes. The policy is data and names no tool.

Each tool declares the flags it needs (possibly depending on its input); the executor
checks them against the run's permission set. Must not know: any particular tool.
"""

from __future__ import annotations

from enum import StrEnum


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
