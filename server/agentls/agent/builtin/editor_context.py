"""The editor context: the file, selection range and selected text the run started from,
and the problems (diagnostics) the editor reported there.

Offered on every turn as a user message (lines shown 1-based for people, with the 0-based
range beside them). Nothing when the run did not start from an editor.
Must not know: LSP, the editor, the loop's internals.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentls.agent.context import RunContext
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message

MAX_SELECTION_CHARS = 8000
MAX_PROBLEMS = 10


class EditorContextComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self.enabled = lambda: self.run.editor is not None
        self.disabled_reason = "the run did not start from an editor"

    def get_messages(self) -> Iterator[Message]:
        ctx = self.run.editor
        if ctx is None:
            return
        text = f"The user started this run from the file `{ctx.path}`"
        if ctx.range is not None:
            (l1, c1), (l2, c2) = ctx.range
            text += f", with lines {l1 + 1}–{l2 + 1} selected (0-based range {l1}:{c1}–{l2}:{c2})"
        text += "."
        if ctx.text:
            selection = ctx.text
            if len(selection) > MAX_SELECTION_CHARS:
                selection = selection[:MAX_SELECTION_CHARS] + "\n…[selection cut]"
            text += f"\nThe selected text:\n```\n{selection}\n```"
        if ctx.problems:
            text += "\nThe editor reports these problems there:\n" + "\n".join(f"- {p}" for p in ctx.problems[:MAX_PROBLEMS])
        yield {"role": "user", "content": text}
