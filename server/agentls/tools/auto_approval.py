"""Auto-approve rules (DESIGN §9): what goes ahead under approval `ask` without asking.

The settings `autoApprove` and `autoApproveDeny` have one shape — `tools` (names),
`paths` (globs), `commands` (patterns) — and deny wins. This module is the one place
that reads them:
- **a proposal** goes ahead when nothing of it is denied — its tool, any file it changes,
  the command that made it (a shell tool's proposal) — and an allow rule covers it: its
  tool is in `tools`, or every file it changes matches `paths`, or it comes from a command
  matching `commands`;
- **a call asked about before it runs** (the `CallGate`: ACP asks before a shell command
  or an MCP tool) goes ahead unasked when its tool is in `tools` or its input's `command`
  matches `commands`, and neither is denied.
Paths are gitignore-style globs against the workspace-relative path (`docs/**`, `*.md`
at any depth, `src/` for everything under it, `!` to take a path back out; the last
matching glob decides, as in `.gitignore`). Commands are the whole command line (trimmed)
against a pattern where `*` is any run of characters and `?` one character — but a
wildcard never matches a shell control character (`; & | < > ( ) $`, backquote, newline),
so `npm run *` does not let `npm run x; rm -rf ~` through.
The rules apply only when the call follows approval `ask` (`approval_for` of its mode) and
the workspace is trusted (`workspaceTrusted`, which the client sets from its workspace
trust); `auto` and `never` are left as they are. The answer is the rule that matched, in
words (`autoApprove.paths ["docs/**"]`), for the audit log, the trace and the user.
Must not know: any particular tool (names come from the settings), the front ends.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pathspec

from agentls.settings import AutoApproveRules, Settings
from agentls.tools.permissions import approval_for

#: What a command pattern's wildcards never match.
SHELL_CONTROL = ";&|<>()$`\n\r"
_WILD = f"[^{re.escape(SHELL_CONTROL)}]"


def command_regex(pattern: str) -> re.Pattern[str]:
    """A command pattern as a regular expression for `fullmatch`."""
    parts = [_WILD + "*" if ch == "*" else _WILD if ch == "?" else re.escape(ch) for ch in pattern.strip()]
    return re.compile("".join(parts))


@dataclass(frozen=True, slots=True)
class _Compiled:
    """One `AutoApproveRules`, ready to match."""

    key: str  # autoApprove | autoApproveDeny
    tools: frozenset[str]
    globs: tuple[str, ...]
    spec: pathspec.GitIgnoreSpec | None
    commands: tuple[tuple[str, re.Pattern[str]], ...]

    def tool(self, name: str) -> str | None:
        return f"{self.key}.tools {name!r}" if name in self.tools else None

    def command(self, command: str | None) -> str | None:
        if command is None:
            return None
        line = command.strip()
        for pattern, regex in self.commands:
            if regex.fullmatch(line):
                return f"{self.key}.commands {pattern!r}"
        return None

    def _glob_of(self, path: str) -> str | None:
        """The glob that includes `path` (the last matching one decides), or None."""
        if self.spec is None:
            return None
        found = self.spec.check_file(path)
        return self.globs[found.index] if found.include and found.index is not None else None

    def every_path(self, paths: Sequence[str]) -> str | None:
        if not paths:
            return None
        globs = [self._glob_of(p) for p in paths]
        if any(g is None for g in globs):
            return None
        return f"{self.key}.paths {sorted(set(g for g in globs if g))}"

    def any_path(self, paths: Sequence[str]) -> str | None:
        for path in paths:
            glob = self._glob_of(path)
            if glob is not None:
                return f"{self.key}.paths {glob!r} ({path})"
        return None


@functools.lru_cache(maxsize=32)
def _compile(rules: AutoApproveRules, key: str) -> _Compiled:
    spec = pathspec.GitIgnoreSpec.from_lines(list(rules.paths)) if rules.paths else None
    commands = tuple((p, command_regex(p)) for p in rules.commands)
    return _Compiled(key, frozenset(rules.tools), tuple(rules.paths), spec, commands)


@dataclass(frozen=True, slots=True)
class AutoApproval:
    """The allow and deny rules of one settings object."""

    allow: _Compiled
    deny: _Compiled

    @classmethod
    def of(cls, settings: Settings) -> AutoApproval:
        return cls(
            _compile(settings.auto_approve, "autoApprove"),
            _compile(settings.auto_approve_deny, "autoApproveDeny"),
        )

    def proposal(self, tool: str, paths: Sequence[str], command: str | None = None) -> str | None:
        """The allow rule that lets a proposal of `tool` changing `paths` (made by `command`)
        go ahead, or None (no rule allows it, or a deny rule matches)."""
        if self.deny.tool(tool) or self.deny.any_path(paths) or self.deny.command(command):
            return None
        return self.allow.tool(tool) or self.allow.every_path(paths) or self.allow.command(command)

    def call(self, tool: str, command: str | None = None) -> str | None:
        """The allow rule that lets a call go ahead unasked, or None."""
        if self.deny.tool(tool) or self.deny.command(command):
            return None
        return self.allow.tool(tool) or self.allow.command(command)


def rules_for(settings: Settings, mode: str, approval: Any) -> AutoApproval | None:
    """The rules a call follows: None unless it follows `ask`, the workspace is trusted and
    some allow rule is set."""
    if not settings.workspace_trusted or settings.auto_approve.empty:
        return None
    if approval_for(mode, approval).approval != "ask":
        return None
    return AutoApproval.of(settings)


def proposal_rule(
    settings: Settings, mode: str, approval: Any, tool: str, paths: Sequence[str], command: str | None = None
) -> str | None:
    """Why a new proposal goes ahead without asking (the rule, in words), or None."""
    rules = rules_for(settings, mode, approval)
    return rules.proposal(tool, paths, command) if rules is not None else None


def call_rule(settings: Settings, mode: str, approval: Any, tool: str, arguments: dict[str, Any]) -> str | None:
    """Why a call goes ahead without the gate asking (the rule, in words), or None."""
    rules = rules_for(settings, mode, approval)
    if rules is None:
        return None
    command = arguments.get("command")
    return rules.call(tool, command if isinstance(command, str) else None)
