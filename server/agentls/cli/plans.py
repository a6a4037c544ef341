"""Plan review on the terminal (`agentls run --approve plan`, DESIGN §9).

Before the run's first task the plan is shown and asked about: `y` runs it, `e` edits it —
in `$VISUAL`/`$EDITOR` (one task a line; `#` lines are ignored; an emptied file rejects the
plan) or, without an editor, task by task on the terminal (Enter keeps a task, `-` drops
it, other text replaces it; then new tasks until an empty line) — and `n` (or Enter)
rejects it with an optional comment, which ends the run before any tool runs. Reads stdin
as the proposal review does (cli/review.py). Must not know: the loop, LSP.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from agentls.agent.plan_review import PlanAnswer, PlanReview

EDIT_HELP = "# The plan, one task a line; lines starting with # are ignored. Empty the file to reject the plan.\n"


def _read(term: Any, prompt: str) -> str:
    with term.lock:
        sys.stderr.write(prompt)
        sys.stderr.flush()
    return sys.stdin.readline().strip()


def show(term: Any, tasks: list[str]) -> None:
    term.line("Plan:")
    for number, task in enumerate(tasks, 1):
        term.line(f"  {number}. {task}")


def ask(term: Any, tasks: list[str]) -> PlanAnswer:
    """Show the plan and ask about it (blocking: call it off the event loop)."""
    term.thinking(False)
    show(term, tasks)
    while True:
        answer = _read(term, "Run this plan? [y/e/N] (e: edit it) ").lower()
        if answer in ("y", "yes"):
            return PlanAnswer.approve(tasks)
        if answer in ("e", "edit"):
            edited = _edit(term, tasks)
            if not edited:
                return PlanAnswer.reject("the user emptied the plan")
            show(term, edited)
            if _read(term, "Run the edited plan? [y/N] ").lower() in ("y", "yes"):
                return PlanAnswer.approve(edited)
        return PlanAnswer.reject(_read(term, "Why not? (optional, Enter to skip) ") or None)


def _edit(term: Any, tasks: list[str]) -> list[str]:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    return _in_editor(editor, tasks) if editor else _by_line(term, tasks)


def _in_editor(editor: str, tasks: list[str]) -> list[str]:
    fd, name = tempfile.mkstemp(prefix="agentls-plan-", suffix=".txt")
    path = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(EDIT_HELP + "".join(f"{t}\n" for t in tasks))
        subprocess.run([*shlex.split(editor), str(path)], check=False)
        lines = path.read_text("utf-8").splitlines()
    finally:
        path.unlink(missing_ok=True)
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _by_line(term: Any, tasks: list[str]) -> list[str]:
    kept: list[str] = []
    for number, task in enumerate(tasks, 1):
        said = _read(term, f"Task {number} ({task}) [Enter: keep, -: drop, or new text] ")
        if said != "-":
            kept.append(said or task)
    while said := _read(term, "Add a task (Enter when done) "):
        kept.append(said)
    return kept


def terminal_review(term: Any) -> PlanReview:
    """The run's PlanReview hook: asks on the terminal in a worker thread."""

    async def review(run_id: str, tasks: list[str]) -> PlanAnswer:
        return await asyncio.to_thread(ask, term, tasks)

    return review
