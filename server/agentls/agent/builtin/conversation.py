"""The conversation so far: in a session (DESIGN §9), the earlier runs' goals, outcomes,
summaries and the decisions on their proposals, and the files those runs changed as they
read now, so a follow-up goal ("now add a test for it") is read against what came before.

Measured in tokens (characters / 4, as the history is) against a share of the model's
context window (`SHARE`, at most `MAX_TOKENS`): the newest runs take up to half of it, the
files they changed (newest first, as they read now) what is left, then older runs the
rest. What is left out is said in the prompt and, once, as the
run's notice (`dropped`). Offered on every turn as one user message, before the run's own
history (it does not change during the run). Nothing when the run is the first of its
session. Must not know: where sessions are kept, any front end, the loop's internals.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agentls.agent.builtin.history import estimate_tokens
from agentls.agent.context import RunContext
from agentls.agent.prompts import render, texts
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message
from agentls.tools.filesystem.content import current_content, is_binary

log = logging.getLogger(__name__)

#: The share of the model's context window the earlier runs may take, and caps in tokens.
SHARE = 0.25
MAX_TOKENS = 8000
MIN_TOKENS = 256
#: A file is shown when at least this many tokens are left for it (else named as left out).
MIN_FILE_TOKENS = 64
#: Proposal statuses whose files the run changed.
CHANGED = ("applied", "accepted")


@dataclass(frozen=True, slots=True)
class Earlier:
    """The earlier runs as the model reads them, and what did not fit (None: nothing)."""

    text: str
    dropped: str | None


def run_text(number: int, run: dict[str, Any]) -> str:
    """One earlier run: its goal, how it ended, its report, the decisions on its proposals."""
    t = texts("conversation")
    verified = run.get("verified")
    outcome = str(run.get("status") or "ended")
    if outcome == "completed":
        outcome += ", verified" if verified else ", unverified" if verified is None else ""
    lines = [t["asked"].format(number=number, goal=run.get("goal", "")), t["ended"].format(outcome=outcome)]
    if run.get("summary"):
        lines.append(t["report"].format(summary=" ".join(str(run["summary"]).split())))
    for p in run.get("proposals") or []:
        decided = t["decided"].format(title=p.get("title") or p.get("id"), status=p.get("status"))
        if p.get("comment"):
            decided += t["comment"].format(comment=p["comment"])
        lines.append(decided)
    return "\n".join(lines)


def earlier_text(runs: tuple[dict[str, Any], ...], budget_tokens: int = MAX_TOKENS) -> str:
    """The earlier runs alone (no files), oldest first, the newest that fit the budget."""
    return compose(runs, None, budget_tokens).text


def changed_files(runs: tuple[dict[str, Any], ...]) -> list[str]:
    """The files the runs' applied proposals changed, the most recently changed first."""
    found: dict[str, None] = {}
    for run in reversed(runs):
        for p in reversed(run.get("proposals") or []):
            if p.get("status") in CHANGED:
                for path in p.get("files") or ([p["path"]] if p.get("path") else []):
                    if isinstance(path, str):
                        found.setdefault(path, None)
    return list(found)


def compose(runs: tuple[dict[str, Any], ...], ctx: Any, budget_tokens: int) -> Earlier:
    """The earlier runs (newest first into the budget) and, with a ToolContext `ctx`, the
    files they changed as they read now (newest first, with what is left)."""
    t = texts("conversation")
    blocks = [run_text(number, run) for number, run in enumerate(runs, 1)]
    files: list[str] = []
    left_out: list[str] = []
    if ctx is None:
        shown, _ = _newest(blocks, [], budget_tokens)
    else:  # the newest runs take up to half, the files they changed what is left, older runs the rest
        half = budget_tokens // 2
        shown, left = _newest(blocks, [], half)
        files, left_out = _files(changed_files(runs), ctx, left + budget_tokens - half)
        left += budget_tokens - half - sum(estimate_tokens(f) + 1 for f in files)
        shown, _ = _newest(blocks, shown, left)
    dropped_runs = len(runs) - len(shown)
    what = []
    if dropped_runs:
        what.append(t["dropped_runs"].format(count=dropped_runs))
    if left_out:
        what.append(t["dropped_files"].format(names=", ".join(left_out)))
    text = render(
        "conversation",
        runs="\n".join(shown),
        files="\n".join([t["files"], *files]) if files else "",
        dropped=t["dropped"].format(what="; ".join(what)) if what else "",
    )
    return Earlier(text, "; ".join(what) or None)


def _newest(blocks: list[str], shown: list[str], left: int) -> tuple[list[str], int]:
    """`shown` (the newest of `blocks`) with older blocks added while `left` tokens hold (the
    newest always); the blocks shown and the tokens left."""
    shown = list(shown)
    for block in reversed(blocks[: len(blocks) - len(shown)]):
        cost = estimate_tokens(block) + 1
        if shown and cost > left:
            break
        shown.insert(0, block)
        left -= cost
    return shown, left


def _files(paths: list[str], ctx: Any, left: int) -> tuple[list[str], list[str]]:
    """Each file as it reads now while the budget holds: (the blocks, the paths left out)."""
    t = texts("conversation")
    blocks: list[str] = []
    left_out: list[str] = []
    for rel in paths:
        try:
            content = current_content(ctx, rel, ctx.workspace.resolve(rel), "read_file")
        except Exception as exc:  # a path now outside the workspace, a folder: left out
            log.info("earlier run's file %s not shown: %s", rel, exc)
            continue
        if content is None:
            blocks.append(t["deleted"].format(path=rel))
            continue
        if is_binary(content.data):
            continue
        if left < MIN_FILE_TOKENS:
            left_out.append(rel)
            continue
        text = content.data.decode("utf-8", "replace")
        room = left * 4
        if len(text) > room:
            head = text[:room].rsplit("\n", 1)[0]
            text = f"{head}\n{t['cut'].format(line=head.count(chr(10)) + 1)}"
        fence = "````" if "```" in text else "```"
        block = f"{t['file'].format(path=rel)}\n{fence}\n{text.rstrip()}\n{fence}"
        left -= estimate_tokens(block) + 1
        blocks.append(block)
    return blocks, left_out


def budget_tokens(context_tokens: int) -> int:
    """The earlier runs' share of a model's context window, in tokens."""
    return max(MIN_TOKENS, min(MAX_TOKENS, int(context_tokens * SHARE)))


class ConversationComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self.enabled = lambda: bool(self.run.earlier)
        self.disabled_reason = "the run is the first of its session"
        self._earlier: Earlier | None = None

    def earlier(self) -> Earlier | None:
        """The earlier runs as this run shows them (made once); None in a first run."""
        if not self.run.earlier:
            return None
        if self._earlier is None:
            self._earlier = compose(self.run.earlier, self.run.tools, budget_tokens(self.run.context_tokens))
        return self._earlier

    def dropped(self) -> str | None:
        """The run's notice when some of the earlier runs did not fit, else None."""
        earlier = self.earlier()
        if earlier is None or earlier.dropped is None:
            return None
        return str(texts("conversation")["notice"].format(what=earlier.dropped))

    def get_messages(self) -> Iterator[Message]:
        earlier = self.earlier()
        if earlier is not None:
            yield {"role": "user", "content": earlier.text}
