"""Grounding: what the workspace really holds, in the prompt of every turn.

A repo map (files and their top definitions with signatures, ranked by how much the rest
of the code refers to them, cut to a budget: analysis/repo_map.py) so the model uses real
paths and names instead of inventing them; the files the goal or the editor context names
(the run's goal reading) and the description files it points to (a spec, instructions)
as they read now (with the run's own pending edits), so the model need not spend turns
reading them and sees its edits in place; and the code names and files the goal takes as
existing that the workspace lacks. Built from the index (built for the run if it has
none); a failure is logged and leaves the prompt without it.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from agentls.agent.context import RunContext
from agentls.agent.goal import GoalReading
from agentls.agent.prompts import render
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message
from agentls.tools.code.index_access import workspace_index
from agentls.tools.filesystem.content import current_content, is_binary

log = logging.getLogger(__name__)

#: Share of the model's context (in characters, 4 per token) the map may take, and caps.
MAP_SHARE = 0.125
MAP_MAX_CHARS = 4000
FILES_MAX_CHARS = 6000
MAX_NAMED_FILES = 3


class GroundingComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self._map: str | None = None

    def _prepare(self) -> None:
        try:
            index = workspace_index(self.run.tools)
            budget = min(MAP_MAX_CHARS, int(self.run.context_tokens * 4 * MAP_SHARE))
            # Not ranked towards this goal's files (they are shown whole below): the map then
            # reads the same for every goal in the workspace, and a local model reuses the
            # evaluated prompt prefix (system message and map) from one run to the next.
            self._map = index.repo_map(budget) or "(no source files)"
        except Exception as exc:  # grounding helps; it must never stop a run
            log.warning("no repo map for this run: %s", exc)
            self._map = ""

    def get_messages(self) -> Iterator[Message]:
        if self._map is None:
            self._prepare()
        if not self._map:
            return
        files = self._files()
        if self.run.reading.presumed:
            names = ", ".join(self.run.reading.presumed)
            files += f"\n\nNot in the workspace: {names} (no file defines or uses it)."
        if self.run.missing_files:
            names = ", ".join(self.run.missing_files)
            files += f"\n\nNo such file in the workspace: {names}."
        yield {"role": "user", "content": render("grounding", map=self._map, files=files)}

    def _files(self) -> str:
        ctx, room, out = self.run.tools, FILES_MAX_CHARS, []
        for rel in self._shown():
            try:
                content = current_content(ctx, rel, ctx.workspace.resolve(rel), "read_file")
            except Exception:
                continue
            if content is None or is_binary(content.data) or room <= 200:
                continue
            data, label = content.data, f"You have already read {rel} (no need to read it again); it reads now:"
            if (first := self._as_begun(rel)) is not None:
                data, label = first, render("fresh_try", path=rel, tries=self.run.attempt)
            text = data.decode("utf-8", "replace")
            if len(text) > room:
                shown = text[:room].rsplit("\n", 1)[0]
                text = f"{shown}\n…(cut after line {shown.count(chr(10))}; read_file for the rest)"
            room -= len(text)
            fence = "````" if "```" in text else "```"  # a Markdown file's own fences stay inside
            out.append(f"\n{label}\n{fence}\n{text.rstrip()}\n{fence}")
        return "".join(out)

    def _as_begun(self, rel: str) -> bytes | None:
        """With fresh tries after a failed one: the file as the run began (the first
        proposal's base), so the next version is written from the description, not copied
        from the last; None otherwise."""
        store = self.run.tools.proposals
        if not self.run.fresh_tries or not self.run.attempt or store is None:
            return None
        for proposal in sorted(store.list(self.run.run_id), key=lambda p: p.created_at):
            for change in proposal.changes:
                if change.path == rel and change.old is not None:
                    return change.old
        return None

    def _shown(self) -> list[str]:
        return shown_files(self.run.reading)


def shown_files(reading: GoalReading) -> list[str]:
    """The files a prompt shows whole: those the goal names, its description files, and
    the test files that exercise them (for jobs the tests decide)."""
    files = [*reading.files[:MAX_NAMED_FILES], *reading.specs, *reading.tests]
    return list(dict.fromkeys(files))
