"""The done check: a run says `completed` only when it did what the goal asked.

A goal asks for a change when one of its words is a change verb (add, fix, rename, …) and
the run may write files. Then:
- the model's `finish` on the run's last task, before any file was changed, is turned
  away once with a nudge (`CallRejected`) naming what is missing;
- at the end, `failure()` gives the reason the run must end `failed`: no file changed
  (no proposal applied or pending), or a changed file that no longer parses.
The loop also shows the model the run's diff with the goal in the last planning turn
(`changes()`), as its final yes/no: `[]` when the goal is reached.
Must not know: particular tools beyond the proposal store, models, LSP.
"""

from __future__ import annotations

import re

from agentls.agent.actions import ParsedCall
from agentls.agent.context import RunContext
from agentls.agent.outcomes import CallRejected
from agentls.agent.protocols import AfterParse
from agentls.tools.permissions import Permission
from agentls.tools.proposals import Proposal

CHANGE_VERBS = frozenset(
    ["add", "append", "change", "convert", "create", "delete", "edit", "fix", "guard", "implement", "insert", "make", "modify", "move", "refactor", "remove", "rename", "replace", "rewrite", "set", "update", "write", "annotate"]
)
MAX_DIFF_CHARS = 3000
_WORD = re.compile(r"[a-z_]+")
#: "do not change anything", "without changing the tests": verbs that are ruled out.
_NEGATED = re.compile(r"\b(?:do not|don't|dont|never|without|not)\s+[a-z_]+")


def asks_for_change(goal: str) -> bool:
    text = _NEGATED.sub(" ", goal.lower().replace("’", "'"))
    return any(word in CHANGE_VERBS for word in _WORD.findall(text))


class DoneCheckComponent(AfterParse):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self._nudged = False

    @property
    def wants_change(self) -> bool:
        may_write = Permission.FILESYSTEM_WRITE in self.run.tools.permissions
        return may_write and asks_for_change(self.run.goal)

    def changed(self) -> list[Proposal]:
        store = self.run.tools.proposals
        if store is None:
            return []
        return [p for p in store.list(self.run.run_id) if p.status in ("applied", "pending")]

    def after_parse(self, result: ParsedCall) -> None:
        if result.name != "finish" or self._nudged or not self.wants_change:
            return
        if self.run.state.pending() or self.changed():
            return
        self._nudged = True
        raise CallRejected(
            "Not finished: the goal asks for a change, but no file has been changed in this "
            "run yet. Make the change now (edit_file, replace_symbol, insert_symbol, "
            "add_docstring or write_file), then call finish. If it truly cannot be done, "
            "call finish again saying why: the run will then end as failed."
        )

    def changes(self) -> str:
        """The run's diff so far (cut to a budget), or a sentence saying nothing changed."""
        diffs = [p.diff for p in self.changed()]
        if not diffs:
            return "(no file was changed in this run)"
        text = "".join(diffs)
        if len(text) > MAX_DIFF_CHARS:
            text = text[:MAX_DIFF_CHARS] + "\n…[diff cut]"
        return text

    def failure(self) -> str | None:
        """Why the run must not end `completed`, or None."""
        changed = self.changed()
        if self.wants_change and not changed:
            return (
                "not done: the goal asks for a change, but the run changed no file "
                "(no edit was applied or is pending)"
            )
        broken = [p.path for p in changed if _breaks(self.run, p)]
        if broken:
            return "not done: the change leaves files that no longer parse: " + ", ".join(broken)
        return None


def _breaks(run: RunContext, proposal: Proposal) -> bool:
    """Whether the file as the run leaves it has syntax errors (a final safety net: edits
    that add syntax errors are already refused when proposed)."""
    from agentls.analysis.syntax import syntax_errors

    store = run.tools.proposals
    data = store.overlay(run.run_id, proposal.path) if store is not None else None
    if data is None:
        data = run.tools.workspace.read_bytes(proposal.path)
    if data is None:
        return False
    try:
        return bool(syntax_errors(proposal.path, data))
    except Exception:  # a checker bug must not fail a run
        return False
