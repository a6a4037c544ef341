"""The done check: a run says `completed` only when it did what the goal asked.

A goal asks for a change when one of its words is a change verb (add, fix, rename, …) and
the run may write files. Then:
- the model's `finish` on the run's last task, before any file was changed, is turned
  away once with a nudge (`CallRejected`) naming what is missing;
- at the end, `failure()` gives the reason the run must end `failed`: no file changed
  (no proposal applied or pending), none of the existing files the goal names changed
  (`RunContext.named_files`, found by grounding), a value it asks for ("… to 60",
  "from Hello to Welcome") in none of the lines the run changed, a code name the goal mentions that no
  file held at the start and none holds at the end (`unknown_names`: "fix compute_tax"
  where there is no compute_tax), a changed file that no longer parses,
  or — when the mode may run processes — the workspace's tests failing after the change.
The loop also shows the model the run's diff with the goal in the last planning turn
(`changes()`), as its final yes/no: `[]` when the goal is reached.
Must not know: particular tools beyond the proposal store, models, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from agentls.agent.actions import ParsedCall
from agentls.agent.builtin import evidence
from agentls.agent.builtin.recipes import MODULE_DOC, WRITES_TESTS
from agentls.agent.context import RunContext
from agentls.agent.outcomes import CallRejected
from agentls.agent.protocols import AfterParse
from agentls.tools.permissions import Permission
from agentls.tools.proposals import Proposal

CHANGE_VERBS = frozenset(
    ["add", "append", "change", "convert", "create", "delete", "edit", "fix", "guard", "implement", "insert", "make", "modify", "move", "refactor", "remove", "rename", "replace", "rewrite", "set", "update", "write", "annotate"]
)
MAX_DIFF_CHARS = 3000
_TESTS = re.compile(r"\btests?\b|\bpytest\b", re.IGNORECASE)
#: "Rename the class Usr to User", "rename calc_total() to compute_total"
RENAME = re.compile(
    r"\brename\s+(?:the\s+)?(?:(?:function|class|method|variable|constant|attribute|field|type)\s+)?"
    r"[`'\"]?([A-Za-z_]\w*)[`'\"]?(?:\(\))?\s+(?:to|into|as)\s+[`'\"]?([A-Za-z_]\w*)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z_]+")
#: "do not change anything", "without changing the tests": verbs that are ruled out.
_NEGATED = re.compile(r"\b(?:do not|don't|dont|never|without|not)\s+[a-z_]+")


def asks_for_change(goal: str) -> bool:
    text = _NEGATED.sub(" ", goal.lower().replace("’", "'"))
    return any(word in CHANGE_VERBS for word in _WORD.findall(text))


#: Runs the workspace's tests (the agent binds it to the run_test_suite tool): the tool's
#: result, or None when the workspace has no tests the tool can run.
SuiteRunner = Callable[[], Awaitable[Any]]


class DoneCheckComponent(AfterParse):
    def __init__(
        self, run: RunContext, tests: SuiteRunner | None = None, writes: Callable[[str], bool] | None = None
    ) -> None:
        super().__init__()
        self.run = run
        self.tests = tests
        #: whether a command changes files (edits are turned away when the goal cannot be done)
        self.writes = writes
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

    def missing(self) -> str | None:
        """What a change goal still lacks: any change, or a change to the files it names."""
        if not self.wants_change:
            return None
        changed = {c.path for p in self.changed() for c in p.changes}
        if not changed:
            return "no file has been changed in this run yet"
        absent = [
            f for f in self.run.new_files
            if not any(c == f or c.endswith("/" + f) for c in changed) and not evidence.on_disk(self.run, f)
        ]  # fmt: skip
        if absent:
            return f"the goal asks for the new file {', '.join(absent)}, which this run has not created"
        if WRITES_TESTS.search(self.run.goal):
            empty = [f for f in self.run.new_files if not evidence.has_test(evidence.text_now(self.run, f))]
            if empty:
                return f"the new file {', '.join(empty)} has no test in it (a function named test_… with assert statements)"
        undefined = evidence.new_undefined_names(self.run, self.changed())
        if undefined:
            return undefined
        if MODULE_DOC.search(self.run.goal):
            bare = [f for f in self.run.named_files if f.endswith(".py") and not evidence.module_docstring(evidence.text_now(self.run, f))]
            if bare:
                return f"{', '.join(bare)} still has no module docstring (the first statement of the file)"
        if value := evidence.missing_value(self.run.goal, self.changed()):
            return value
        named = self.run.named_files
        if named and not changed & set(named) and not self.run.new_files:
            return (
                f"the goal names {', '.join(named)}, but this run has changed only "
                f"{', '.join(sorted(changed))}"
            )
        return self._rename_leftover()

    def _rename_leftover(self) -> str | None:
        """For "rename X to Y": where X is still used as a name (the definition renamed,
        its uses not), from the code index and this run's pending changes."""
        match = RENAME.search(self.run.goal)
        if match is None or match.group(1) == match.group(2):
            return None
        try:
            left = evidence.uses(self.run, match.group(1))
        except Exception:  # the index is a help here; no verdict without it
            return None
        if not left:
            return None
        where = ", ".join(f"{path} line {line + 1}" for path, line in left[:5])
        return (
            f"{match.group(1)} is still used ({where}); rename_symbol renames the definition "
            "and every use at once"
        )

    def impossible(self) -> str | None:
        """Why no edit can do what a change goal asks: it is about a file or a code name the
        workspace did not have (and does not ask to make)."""
        if not self.wants_change:
            return None
        if self.run.missing_files:
            return f"the goal is about {', '.join(self.run.missing_files)}, which the workspace does not have"
        presumed = [n for n in self.run.unknown_names if not evidence.made_by_goal(self.run.goal, n)]
        if presumed:
            return f"the goal is about {', '.join(presumed)}, which no file of the workspace has"
        return None

    def after_parse(self, result: ParsedCall) -> None:
        if self.writes is not None and self.writes(result.name) and (why := self.impossible()):
            # an impossible goal's edits are junk the user must then undo (with approval
            # auto the 1.5B added the compute_tax it was asked to fix, and the run failed
            # with the file changed)
            raise CallRejected(
                f"Not run: {why}, so no change can do what it asks. Call finish saying that "
                "(the run will end as failed); do not make or change other code instead."
            )
        if result.name != "finish" or self._nudged or self.run.state.pending() or self.impossible():
            return  # (an impossible goal's finish is its answer: no "make the change now")
        missing = self.missing()
        if missing is None:
            return
        self._nudged = True
        raise CallRejected(
            f"Not finished: the goal asks for a change, but {missing}. Make the change now "
            "(edit_file, replace_symbol, insert_symbol, add_docstring or write_file), then "
            "call finish. If it truly cannot be done, call finish again saying why: the run "
            "will then end as failed."
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

    async def reached(self) -> bool:
        """Positive evidence that a goal about tests is met: it asks for a change and names
        tests, the run changed files, nothing is missing, and the workspace's tests now run
        and pass. The loop then ends the run instead of planning more work (a later task
        "fixed" a fix that already passed: benchmark pattern 16)."""
        if not self.wants_change or not _TESTS.search(self.run.goal) or self.tests is None:
            return False
        if Permission.SHELL_EXECUTION not in self.run.tools.permissions or self._static_failure():
            return False
        result = await self.tests()
        out = (getattr(result, "output", None) or {}) if getattr(result, "ok", False) else {}
        return bool(out.get("passed")) and _suite_failure(result) is None

    async def failure(self) -> str | None:
        """Why the run must not end `completed`, or None."""
        reason = self._static_failure()
        may_run = Permission.SHELL_EXECUTION in self.run.tools.permissions
        if reason is None and may_run and self.tests is not None and self.changed():
            reason = _suite_failure(await self.tests())
        return reason

    def _static_failure(self) -> str | None:
        changed = self.changed()
        if why := self.impossible():
            return f"not done: {why} (it was not there when the run started), so it cannot be done as asked"
        if self.wants_change and not changed:
            return (
                "not done: the goal asks for a change, but the run changed no file "
                "(no edit was applied or is pending)"
            )
        missing = self.missing()
        if missing is not None:
            return f"not done: {missing}"
        absent = [n for n in self.run.unknown_names if not evidence.anywhere(self.run, n, changed)]
        if self.wants_change and absent:
            return (
                f"not done: the goal names {', '.join(absent)}, which the workspace does not "
                "have (before or after this run)"
            )
        broken = sorted({c.path for p in changed for c in p.changes if c.new is not None and evidence.breaks(self.run, c.path)})
        if broken:
            return "not done: the change leaves files that no longer parse: " + ", ".join(broken)
        return None


def _suite_failure(result: Any) -> str | None:
    """'not done: …' when the suite ran and failed; None when it passed or could not run
    (no runner detected, no sandbox: the check cannot say, so it does not fail the run)."""
    if result is None or not getattr(result, "ok", False):
        return None
    out = result.output or {}
    failed = (out.get("failed") or 0) + (out.get("errors") or 0)
    if not failed and out.get("exit_code") in (0, None, 5):  # 5: pytest found no tests
        return None
    names = ", ".join(f["name"] for f in (out.get("failing") or [])[:5]) or "see the output"
    return f"not done: the workspace's tests fail after the change ({out.get('command')}: {names})"
