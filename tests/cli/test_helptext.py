"""Each subcommand's --help says what its modes allow, what its approvals do and what its
exit codes mean; the modes' rows are the permission policy's data."""

from __future__ import annotations

import argparse
import re

import pytest

from agentls.cli import build_parser
from agentls.cli.helptext import PERMISSIONS
from agentls.tools.permissions import MODES, Permission

COMMANDS = ["serve", "run", "tools", "tool", "undo", "mcp"]


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([command, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def _section(text: str, title: str) -> dict[str, str]:
    """The rows of the section whose heading starts with `title`: key → its text, unwrapped."""
    found = re.search(rf"^{re.escape(title)}.*\n((?:  .*\n?)+)", text, re.MULTILINE)
    assert found, f"no section {title!r} in:\n{text}"
    rows: dict[str, str] = {}
    key = ""
    for line in found.group(1).splitlines():
        head = re.match(r"  (\S+(?: \S+)?)  +(.*)", line)
        if head and not line.startswith("   "):
            key = head.group(1)
            rows[key] = head.group(2)
        else:
            rows[key] += " " + line.strip()
    return rows


def _options(command: str) -> dict[str, argparse.Action]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a for a in sub.choices[command]._actions}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_says_what_its_exit_codes_mean(command: str, capsys) -> None:
    codes = _section(_help(command, capsys), "exit codes:")
    assert "0" in codes and codes["2"].startswith("bad usage")


@pytest.mark.parametrize("command", [c for c in COMMANDS if "mode" in _options(c)])
def test_a_command_with_modes_says_what_each_mode_allows(command: str, capsys) -> None:
    text = _help(command, capsys)
    modes = _section(text, "modes (--mode")
    short = {flag: name for flag, (name, _) in PERMISSIONS.items()}
    assert list(modes) == list(_options(command)["mode"].choices) == list(MODES)
    for mode, flags in MODES.items():
        listed = modes[mode].removesuffix(" (every permission)").split(", ")
        assert listed == [short[p] for p in Permission if p in flags], mode
    explained = _section(text, "permissions")
    assert {f"({p.value})" for p in Permission} == {row.split()[0] for row in explained.values()}


@pytest.mark.parametrize("command", [c for c in COMMANDS if "approve" in _options(c)])
def test_a_command_with_approvals_says_what_each_one_does(command: str, capsys) -> None:
    approvals = _section(_help(command, capsys), "approvals (--approve")
    assert list(approvals) == list(_options(command)["approve"].choices)
    assert all(len(text) > 15 for text in approvals.values())


def test_run_help_names_the_statuses_behind_exit_1_and_the_modes_it_may_auto_apply_in(capsys) -> None:
    text = _help("run", capsys)
    codes = _section(text, "exit codes:")
    assert "completed" in codes["0"]
    assert all(s in codes["1"] for s in ("failed", "cancelled", "budget_exhausted"))
    assert "dev and full" in _section(text, "approvals")["auto"]
    assert _section(text, "modes")["read-only"] == "read"
