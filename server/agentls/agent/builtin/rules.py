"""The project's rules (DESIGN §9): the rules files a workspace keeps for coding agents,
read once before the first turn into the run's instructions.

Read in this order, when they exist: `AGENTS.md`, `.agentls/rules/*.md`, `.clinerules` (a
file, or a folder whose files are read in name order), `CONVENTIONS.md`,
`.github/copilot-instructions.md` — as the run sees them (an open editor buffer before the
disk). Together they get a budget (`RULES_MAX_CHARS`, and at most `RULES_SHARE` of the
model's window, so the 1.5B and 0.5B keep room for the job): a file past what is left is
cut, with a note saying so, and files after the budget is spent are left out (reported
as cut). Every path is confined to the workspace: a rules file that is a link leading
outside is refused and reported as a `warning`. The `rules` event names what was read;
setting `rules: false` turns all of it off. The rules are a system message right after the
system prompt (the embedded model's prompt joins the two), on every turn, for every turn
policy.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from agentls.agent.context import RunContext
from agentls.agent.prompts import texts
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message
from agentls.workspace import Workspace
from agentls.workspace.paths import PathOutsideWorkspace

log = logging.getLogger(__name__)

#: Characters the rules may take at most, and their share of the model's window
#: (in characters, 4 per token).
RULES_MAX_CHARS = 12_000
RULES_SHARE = 0.1
#: Files a rules folder may contribute.
MAX_FOLDER_FILES = 20
#: Left for a file's text below this, it is not shown at all.
MIN_SHOWN_CHARS = 200
FILES = ("AGENTS.md", ".agentls/rules", ".clinerules", "CONVENTIONS.md", ".github/copilot-instructions.md")
#: Folders among FILES, and what of them is read.
FOLDER_SUFFIXES = {".agentls/rules": (".md",), ".clinerules": ()}

Emit = Callable[[str, dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class RulesFile:
    path: str
    text: str  # as shown (cut to the budget, the note included)
    chars: int  # the file's whole length
    cut: bool

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "chars": self.chars, "cut": self.cut}


def rules_paths(ws: Workspace) -> tuple[list[str], list[tuple[str, str]]]:
    """The rules files of the workspace, in reading order, and the refused ones (path,
    why): a link leading outside the workspace."""
    found: list[str] = []
    refused: list[tuple[str, str]] = []
    for rel in FILES:
        for path in _expand(ws, rel, refused):
            try:
                real = ws.resolve(path)
            except PathOutsideWorkspace as exc:
                refused.append((path, exc.reason))
                continue
            if real.is_file():
                found.append(path)
    return found, refused


def _expand(ws: Workspace, rel: str, refused: list[tuple[str, str]]) -> list[str]:
    """`rel`, or the files of the folder `rel` (a rules folder)."""
    if rel not in FOLDER_SUFFIXES:
        return [rel]
    try:
        folder = ws.resolve(rel)
    except PathOutsideWorkspace as exc:
        refused.append((rel, exc.reason))
        return []
    if not folder.is_dir():
        return [rel]  # `.clinerules` may be a file
    suffixes = FOLDER_SUFFIXES[rel]
    names = sorted(
        p.name for p in folder.iterdir()
        if not p.name.startswith(".") and (not suffixes or p.suffix in suffixes)
    )  # fmt: skip
    return [f"{rel}/{name}" for name in names[:MAX_FOLDER_FILES]]


def read_rules(ws: Workspace, budget: int) -> tuple[list[RulesFile], list[tuple[str, str]]]:
    """The rules files as shown within `budget` characters, and the refused ones."""
    paths, refused = rules_paths(ws)
    note = texts("rules")["cut"]
    out: list[RulesFile] = []
    room = budget
    for path in paths:
        data = ws.read_bytes(path)
        if data is None:
            continue
        text = data.decode("utf-8", "replace").strip()
        if not text:
            continue
        if len(text) <= room:
            out.append(RulesFile(path, text, len(text), False))
            room -= len(text)
            continue
        shown = text[:room].rsplit("\n", 1)[0] if room >= MIN_SHOWN_CHARS else ""
        cut = note.format(path=path, shown=len(shown), chars=len(text))
        out.append(RulesFile(path, f"{shown}\n{cut}".strip(), len(text), True))
        room = max(0, room - len(shown))
    return out, refused


class RulesComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self.files: list[RulesFile] = []
        self.enabled = lambda: self.run.settings.source.rules
        self.disabled_reason = "the setting `rules` is false"

    @property
    def budget(self) -> int:
        return min(RULES_MAX_CHARS, int(self.run.context_tokens * 4 * RULES_SHARE))

    async def prepare(self, emit: Emit) -> None:
        """Read the rules (once, before the first turn, off the event loop); report them
        (`rules`) and the refused ones (`warning`)."""
        if not self.run.settings.source.rules:
            return
        try:
            self.files, refused = await asyncio.to_thread(read_rules, self.run.tools.workspace, self.budget)
        except OSError as exc:  # a rules file that cannot be read must not stop the run
            log.warning("rules files not read: %s", exc)
            emit("warning", {"source": "rules", "subject": ".", "message": f"the rules files could not be read: {exc}"})
            return
        for path, why in refused:
            log.warning("rules file %s refused: %s", path, why)
            message = texts("rules")["refused"].format(path=path, why=why)
            emit("warning", {"source": "rules", "subject": path, "message": message})
        if self.files:
            self.run.context_chars += sum(len(f.text) for f in self.files)
            emit("rules", {"files": [f.to_dict() for f in self.files]})

    def get_messages(self) -> Iterator[Message]:
        if not self.files:
            return
        parts = [texts("rules")["intro"].format(paths=", ".join(f.path for f in self.files))]
        parts += [f"## {f.path}\n{f.text}" for f in self.files]
        yield {"role": "system", "content": "\n\n".join(parts)}

