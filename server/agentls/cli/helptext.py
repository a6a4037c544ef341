"""What the subcommands' `--help` says below their flags: what each mode allows (read from
the permission policy, `agentls.tools.permissions`, never restated), what each approval
does with a proposed edit, and what each exit code means, laid out as written
(`explain`). Must not know: any subcommand's behaviour beyond the text its caller gives.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence

from agentls.tools.permissions import AUTO_APPROVE_MODES, MODES, Permission

MODE_CHOICES: tuple[str, ...] = tuple(MODES)
APPROVAL_CHOICES = ("ask", "auto", "never")
WIDTH = 79

#: Each permission flag: its short name in the help, and what it lets the tools do.
PERMISSIONS: dict[Permission, tuple[str, str]] = {
    Permission.FILESYSTEM_READ: ("read", "read and search the workspace's files, git status and diffs"),
    Permission.FILESYSTEM_WRITE: ("write", "propose edits and new files (the approval decides what is written)"),
    Permission.SHELL_EXECUTION: ("shell", "run commands, tests and installs in the shell sandbox"),
    Permission.GIT_WRITE: ("git write", "commit, create branches"),
    Permission.NETWORK: ("network", "search and fetch the web; shell commands may reach the network"),
}
APPROVALS: dict[str, str] = {
    "ask": "each proposed edit is shown as a diff and asked about on the terminal (accept, "
    "hunk by hunk, or reject with a comment for the model); with no terminal to ask on "
    "it stays pending and nothing is written",
    "auto": "each proposed edit is applied at once; only in modes "
    f"{' and '.join(m for m in MODES if m in AUTO_APPROVE_MODES)} (in the others: ask)",
    "never": "each proposed edit is shown, never applied",
}
#: `agentls run` and `agentls acp` only: plan review (DESIGN §9).
PLAN_APPROVAL = (
    "plan",
    "the run's plan is shown first and asked about (run it, edit it, or reject it, "
    "which ends the run cancelled before any tool runs); then each edit is asked about as "
    "with ask; needs a terminal",
)


def section(title: str, rows: Sequence[tuple[str, str]]) -> str:
    """`title`, then one row per (key, text): the keys in a column, the texts wrapped beside."""
    width = max(len(key) for key, _ in rows) + 2
    lines = [title]
    for key, text in rows:
        wrapped = textwrap.wrap(text, WIDTH - 2 - width) or [""]
        lines.append(f"  {key:<{width}}{wrapped[0]}")
        lines.extend(" " * (2 + width) + more for more in wrapped[1:])
    return "\n".join(lines)


def modes(default: str = "the settings' mode, else dev") -> str:
    """What each mode grants, then what each permission lets the tools do."""
    grants = [
        (mode, ", ".join(PERMISSIONS[p][0] for p in Permission if p in flags)
         + (" (every permission)" if flags == frozenset(Permission) else ""))
        for mode, flags in MODES.items()
    ]  # fmt: skip
    what = [(short, f"({p.value}) {text}") for p, (short, text) in PERMISSIONS.items()]
    return "\n\n".join([
        section(f"modes (--mode; default: {default}):", grants),
        section("permissions (`agentls tools` shows what each tool needs):", what),
    ])  # fmt: skip


def approvals(default: str = "the settings' approval, else ask", *, plan: bool = False, **instead: str) -> str:
    """What each approval does with a proposed edit; `instead` rewords some for one command;
    `plan`: the command also takes approval plan."""
    rows = [(name, instead.get(name, text)) for name, text in APPROVALS.items()]
    if plan:
        rows.append(PLAN_APPROVAL)
    return section(f"approvals (--approve; default: {default}):", rows)


def exit_codes(rows: Sequence[tuple[str, str]]) -> str:
    return section("exit codes:", rows)


def explain(parser: argparse.ArgumentParser, *sections: str) -> None:
    """Puts `sections` below the parser's options, their line breaks kept."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "\n\n".join(sections)
