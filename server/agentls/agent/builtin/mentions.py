"""The goal's mentions (DESIGN §9) as context blocks of the run's turns.

Before the first turn, `prepare` finds the goal's mentions (agent/mentions.py: the
grammar) and resolves each through the run's tools (mention_sources.py) — at once, side by
side — into one block each, cut to the room left of the mentions' budget
(`MENTIONS_MAX_CHARS`, and at most `MENTIONS_SHARE` of the model's window; the short
blocks whole, what they leave shared by the long ones: `fair_shares`); a mention
that brings nothing (a missing file, a path outside the workspace, an unknown symbol, a
URL this mode may not fetch, no open documents for `@problems`) is reported as a
`warning` event, and the run goes on without it. A mentioned file the grounding
component already shows whole (a file the goal names) is pointed to instead of shown
twice. The blocks are one user message on every turn, for every turn policy, so the
model sees them in its first.
Must not know: the loop's internals, LSP, which tool reads what.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

from agentls.agent.builtin.grounding import FILES_MAX_CHARS, shown_files
from agentls.agent.builtin.mention_sources import Sources, Unresolved
from agentls.agent.context import RunContext
from agentls.agent.mentions import Mention, find_mentions
from agentls.agent.prompts import texts
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message
from agentls.tools.executor import ToolExecutor
from agentls.workspace.paths import PathOutsideWorkspace

log = logging.getLogger(__name__)

#: Characters the mentions' blocks may take at most, and their share of the model's
#: window (in characters, 4 per token).
MENTIONS_MAX_CHARS = 24_000
MENTIONS_SHARE = 0.25
#: Mentions resolved per goal (the rest are reported and left out).
MAX_MENTIONS = 8
#: Less room than this left: a block is left out (reported) rather than cut to nothing.
MIN_BLOCK_CHARS = 300

Emit = Callable[[str, dict[str, Any]], None]


class MentionsComponent(MessageProvider):
    def __init__(self, run: RunContext, executor: ToolExecutor) -> None:
        super().__init__()
        self.run = run
        self.executor = executor
        self.blocks: list[str] = []
        self.enabled = lambda: bool(self.blocks)
        self.disabled_reason = "the goal mentions nothing that could be resolved"

    @property
    def budget(self) -> int:
        return min(MENTIONS_MAX_CHARS, int(self.run.context_tokens * 4 * MENTIONS_SHARE))

    def find(self, goal: str, picked: tuple[str, ...] = ()) -> list[Mention]:
        """The goal's mentions, then those the client picked (`@` optional; a word there
        is a path even when the workspace lacks it: it was picked as one)."""
        found = find_mentions(goal, self._exists)
        for text in picked:
            body = text.strip().removeprefix("@")
            for mention in find_mentions("@" + body, lambda _: True) if body else []:
                if all((m.kind, m.value) != (mention.kind, mention.value) for m in found):
                    found.append(mention)
        return found

    def _exists(self, path: str) -> bool:
        """Whether the workspace has `path` (a word without a `/`) — a link leading outside
        counts, so it is a mention, refused when resolved, not prose."""
        ws = self.run.tools.workspace
        try:
            return os.path.lexists(ws.root / path) or ws.document(path) is not None
        except (PathOutsideWorkspace, OSError, ValueError):
            return False

    async def prepare(self, goal: str, emit: Emit, picked: tuple[str, ...] = ()) -> None:
        """Resolve the goal's mentions, and those the client `picked`, into blocks (once,
        before the first turn); each one that brings nothing is a `warning` event."""
        phrases = texts("mentions")
        found = self.find(goal, picked)
        for extra in found[MAX_MENTIONS:]:
            emit("warning", _warning(extra, phrases["too_many"].format(limit=MAX_MENTIONS)))
        found = found[:MAX_MENTIONS]
        if not found:
            return
        sources = Sources(self.executor, self.run.tools)
        results = await asyncio.gather(*(self._one(sources, m, self.budget) for m in found))
        results = [(self._shown_below(m, text, phrases), why) for m, (text, why) in zip(found, results, strict=True)]
        resolved = [(m, text) for m, (text, _) in zip(found, results, strict=True) if text is not None]
        allotted = dict(zip((m for m, _ in resolved), fair_shares([len(t) for _, t in resolved], self.budget), strict=True))
        for mention, (text, why) in zip(found, results, strict=True):
            if text is None:
                log.info("mention %s not resolved: %s", mention.text, why)
                emit("warning", _warning(mention, str(why)))
                continue
            room = allotted[mention]
            if len(text) > room:
                if room < MIN_BLOCK_CHARS:
                    emit("warning", _warning(mention, phrases["no_room"].format(budget=self.budget)))
                    continue
                text = text[:room].rsplit("\n", 1)[0]
                text += "\n" + phrases["cut"].format(mention=mention.text, line=text.count("\n") + 1)
            self.blocks.append(f"{mention.text} →\n{text}")
        self.run.context_chars += sum(len(b) for b in self.blocks)

    def _shown_below(self, mention: Mention, text: str | None, phrases: dict[str, str]) -> str | None:
        """A file the grounding shows whole on every turn, as it reads now (the goal names
        it), is pointed to, not shown twice."""
        if text is None or mention.kind != "path":
            return text
        shown = shown_files(self.run.reading)
        try:
            rel = self.run.tools.workspace.relative(self.run.tools.workspace.resolve(mention.value))
        except (PathOutsideWorkspace, ValueError):
            return text
        if rel in shown and len(text) <= FILES_MAX_CHARS // len(shown):
            return phrases["shown_below"].format(path=rel)
        return text

    async def _one(self, sources: Sources, mention: Mention, room: int) -> tuple[str | None, str | None]:
        try:
            return await sources.resolve(mention, room), None
        except Unresolved as exc:
            return None, str(exc)
        except PathOutsideWorkspace as exc:
            return None, f"{mention.value} is outside the workspace: {exc.reason}"
        except Exception as exc:  # a mention helps; it must never stop a run
            log.warning("mention %s failed", mention.text, exc_info=True)
            return None, f"{type(exc).__name__}: {exc}"

    def get_messages(self) -> Iterator[Message]:
        if not self.blocks:
            return
        text = texts("mentions")["intro"] + "\n\n" + "\n\n".join(self.blocks)
        yield {"role": "user", "content": text}


def _warning(mention: Mention, message: str) -> dict[str, Any]:
    return {"source": "mention", "subject": mention.text, "message": f"{mention.text}: {message}"}


def fair_shares(sizes: list[int], budget: int) -> list[int]:
    """Characters each block may keep of `budget`: the smaller ones whole, what they leave
    shared equally by the larger ones (in the order given)."""
    shares = [0] * len(sizes)
    left = budget
    order = sorted(range(len(sizes)), key=lambda i: sizes[i])
    for k, i in enumerate(order):
        shares[i] = min(sizes[i], left // (len(order) - k))
        left -= shares[i]
    return shares
