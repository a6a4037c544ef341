"""The conversation so far: in a session (DESIGN §9), the earlier runs' goals, outcomes,
summaries and the decisions on their proposals, so a follow-up goal ("now add a test for
it") is read against what came before.

Offered on every turn as one user message, before the run's own history (it does not
change during the run). Nothing when the run is the first of its session.
Must not know: where sessions are kept, any front end, the loop's internals.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from agentls.agent.context import RunContext
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message

MAX_CHARS = 6000


def earlier_text(runs: tuple[dict[str, Any], ...]) -> str:
    """The earlier runs as the model reads them, oldest first, cut to MAX_CHARS (the
    newest kept)."""
    parts: list[str] = []
    for number, run in enumerate(runs, 1):
        verified = run.get("verified")
        outcome = str(run.get("status") or "ended")
        if outcome == "completed":
            outcome += ", verified" if verified else ", unverified" if verified is None else ""
        lines = [f"{number}. The user asked: {run.get('goal', '')}", f"   It ended {outcome}."]
        if run.get("summary"):
            lines.append("   Its report: " + " ".join(str(run["summary"]).split()))
        for p in run.get("proposals") or []:
            decided = f"   Proposal {p.get('title') or p.get('id')}: {p.get('status')}"
            if p.get("comment"):
                decided += f" (the user said: {p['comment']})"
            lines.append(decided)
        parts.append("\n".join(lines))
    text = "\n".join(parts)
    if len(text) > MAX_CHARS:
        text = "…" + text[-MAX_CHARS:]
    return text


class ConversationComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self.enabled = lambda: bool(self.run.earlier)
        self.disabled_reason = "the run is the first of its session"

    def get_messages(self) -> Iterator[Message]:
        if not self.run.earlier:
            return
        text = (
            "Earlier in this conversation (the current goal may refer to it):\n"
            + earlier_text(self.run.earlier)
        )
        yield {"role": "user", "content": text}
