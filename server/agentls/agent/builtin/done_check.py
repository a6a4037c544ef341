"""The done check: a run says `completed` only when it did what the goal asked.

It reads the goal through the run's goal reading (agent/goal/) and the files as the run
leaves them. When the goal asks for a change:
- the model's `finish` on the run's last task, while something is missing, is turned away
  with a nudge naming it (`CallRejected`) — once for what the files show, and up to
  `TEST_REPAIRS` times when the workspace's tests fail, each time with their failures;
- at the end, `failure()` gives the reason the run must end `failed`: no file changed
  (no proposal applied or pending), none of the files the goal names changed, a new file
  it asks for not made (or a new test file without a test, or one that defines its own
  copy of the code it tests), a docstring goal's function still without one, a change
  for some inputs only ("… when b is 0") that made a function return a constant for
  all of them, a value it asks for ("… to
  60") in none of the lines the run changed, a rename leaving uses of the old name, a
  file it said not to change changed, a name it takes as existing that no file has, a
  changed file that no longer parses — or, when the mode may run processes, the
  workspace's tests failing after the change.
Each check that ran is recorded for the run's verification (`checks`).
The loop also shows the model the run's diff with the goal in the last planning turn
(`changes()`), as its final yes/no: `[]` when the goal is reached.
Must not know: particular tools beyond the proposal store, models, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from agentls.agent.actions import ActionFailure, ParsedCall
from agentls.agent.builtin import evidence, examples, python_checks
from agentls.agent.context import RunContext
from agentls.agent.goal import is_test_file
from agentls.agent.outcomes import CallRejected
from agentls.agent.protocols import AfterParse, ExecutionFailure
from agentls.agent.verification import Check, suite_check
from agentls.tools.permissions import Permission
from agentls.tools.proposals import Proposal

MAX_DIFF_CHARS = 3000
#: Characters of a failed write's reason quoted in the nudge to make the change.
REFUSAL_CHARS = 300
#: How often a finish is turned away because the tests still fail, with their failures.
TEST_REPAIRS = 3

#: Runs the workspace's tests (the agent binds it to the run_test_suite tool): the tool's
#: result, or None when the workspace has no tests the tool can run.
SuiteRunner = Callable[[], Awaitable[Any]]
#: Runs one shell command in the sandbox: the run_command tool's result, or None.
CommandRunner = Callable[[str], Awaitable[Any]]


class DoneCheckComponent(AfterParse, ExecutionFailure):
    def __init__(
        self,
        run: RunContext,
        tests: SuiteRunner | None = None,
        writes: Callable[[str], bool] | None = None,
        command: CommandRunner | None = None,
    ) -> None:
        super().__init__()
        self.run = run
        self.tests = tests
        #: runs a shell command in the sandbox (the agent binds it to run_command)
        self.command = command
        #: whether a command changes files (edits are turned away when the goal cannot be done)
        self.writes = writes
        self._nudged = False
        self._repairs = 0
        #: the checks that ran, latest per kind (the run's verification)
        self.checks: dict[str, Check] = {}
        #: the last suite result (a ToolResult), for feedback and the report
        self.last_suite: Any = None
        self._tested: tuple[tuple[str, str], ...] | None = None
        self._outcome: Check | None = None  # what the last test run (or its examples) said
        self._refused: str | None = None  # why the last write that failed failed

    @property
    def wants_change(self) -> bool:
        return Permission.FILESYSTEM_WRITE in self.run.tools.permissions and self.run.reading.wants_change

    @property
    def may_run_tests(self) -> bool:
        return self.tests is not None and Permission.SHELL_EXECUTION in self.run.tools.permissions

    def changed(self) -> list[Proposal]:
        store = self.run.tools.proposals
        if store is None:
            return []
        return [p for p in store.list(self.run.run_id) if p.status in ("applied", "pending")]

    def changed_paths(self) -> set[str]:
        return {c.path for p in self.changed() for c in p.changes}

    # --- what the files show ----------------------------------------------------------
    def missing(self) -> str | None:
        """What a change goal still lacks, from the files as the run leaves them."""
        if not self.wants_change:
            return None
        reading, changed = self.run.reading, self.changed_paths()
        if not changed:
            return "no file has been changed in this run yet"
        absent = [
            f for f in reading.new_files
            if not any(c == f or c.endswith("/" + f) for c in changed) and not evidence.on_disk(self.run, f)
        ]  # fmt: skip
        if absent:
            return f"the goal asks for the new file {', '.join(absent)}, which this run has not created"
        if reading.kind == "tests" or reading.also_tests:
            empty = [f for f in reading.new_files if not evidence.has_test(evidence.text_now(self.run, f))]
            if empty:
                return f"the new file {', '.join(empty)} has no test in it (a function named test_… with assert statements)"
        touched = sorted(p for p in changed if reading.is_protected(p))
        if touched:
            return f"the goal says not to change {', '.join(touched)}, but this run changed it"
        proposals = self.changed()
        checks = [evidence.new_defects, python_checks.missing_imports]
        if reading.kind == "tests" or reading.also_tests:
            checks.append(python_checks.copied_definitions)
        if reading.conditional and reading.kind in ("change", "fix_tests"):
            checks.append(python_checks.flattened)
        if reading.kind == "docstring" and not reading.module_doc:
            checks.append(python_checks.undocumented)
        for check in checks:
            if (wrong := check(self.run, proposals)) is not None:
                return wrong
        if reading.module_doc:
            bare = [f for f in reading.files if f.endswith(".py") and not evidence.module_docstring(evidence.text_now(self.run, f))]
            if bare:
                return f"{', '.join(bare)} still has no module docstring (the first statement of the file)"
        if value := evidence.missing_value(reading.values, self.changed()):
            return value
        named = [f for f in reading.files if not reading.is_protected(f) and f not in reading.specs]
        if named and not changed & set(named) and not reading.new_files:
            return (
                f"the goal names {', '.join(named)}, but this run has changed only "
                f"{', '.join(sorted(changed))}"
            )
        return self._rename_leftover()

    def _rename_leftover(self) -> str | None:
        """For a rename: where the old name is still used (the definition renamed, its uses
        not), from the code index and this run's pending changes."""
        rename = self.run.reading.rename
        if rename is None or self.run.reading.kind != "rename":
            return None
        try:
            left = evidence.uses(self.run, rename[0])
        except Exception:  # the index is a help here; no verdict without it
            return None
        if not left:
            return None
        where = ", ".join(f"{path} line {line + 1}" for path, line in left[:5])
        return (
            f"{rename[0]} is still used ({where}); rename_symbol renames the definition "
            "and every use at once"
        )

    def impossible(self) -> str | None:
        """Why no edit can do what a change goal asks: it is about a file or a code name the
        workspace does not have (and does not ask to make)."""
        if not self.wants_change:
            return None
        reading = self.run.reading
        if reading.missing_files:
            return f"the goal is about {', '.join(reading.missing_files)}, which the workspace does not have"
        if reading.presumed:
            return f"the goal is about {', '.join(reading.presumed)}, which no file of the workspace has"
        return None

    # --- turning calls away -------------------------------------------------------------
    def after_parse(self, result: ParsedCall) -> None:
        if self.writes is not None and self.writes(result.name):
            if why := self.impossible():
                # an impossible goal's edits are junk the user must then undo
                raise CallRejected(
                    f"Not run: {why}, so no change can do what it asks. Call finish saying that "
                    "(the run will end as failed); do not make or change other code instead."
                )
            path = str(result.arguments.get("path") or "")
            if path and self.run.reading.is_protected(path):
                raise CallRejected(
                    f"Not run: the goal says not to change {path}. Change the code it tests instead."
                )
        if result.name != "finish" or self.run.state.pending() or self.impossible():
            return  # (an impossible goal's finish is its answer: no "make the change now")
        missing = self.missing()
        if missing is not None and not self._nudged:
            self._nudged = True
            refused = f" Your last {self._refused}: correct that call." if self._refused and not self.changed() else ""
            raise CallRejected(
                f"Not finished: the goal asks for a change, but {missing}.{refused} Make the change now "
                "(edit_file, replace_symbol, insert_symbol, add_docstring or write_file), then "
                "call finish. If it truly cannot be done, call finish again saying why: the run "
                "will then end as failed."
            )

    def execution_failure(self, error: ActionFailure) -> None:
        """Remember why a write failed: a nudge to make the change names it (the 1.5B, told
        only "make the change now" after its edit was refused, finished instead)."""
        name = error.result.call.name
        if self.writes is not None and self.writes(name):
            message = str((error.result.error or {}).get("message") or "it failed")
            self._refused = f"{name} was refused ({message[:REFUSAL_CHARS]})"

    async def repair(self) -> str | None:
        """At a finish of a change goal whose workspace tests can run: the failures to fix
        (turned into a nudge up to TEST_REPAIRS times), else None."""
        if not self.wants_change or not self.may_run_tests or not self.changed() or self._repairs >= TEST_REPAIRS:
            return None
        if self.missing() is not None:
            return None
        outcome = await self.tests_now()
        if outcome is None or outcome.passed:
            return None
        self._repairs += 1
        return outcome.detail

    def changes(self) -> str:
        """The run's diff so far (cut to a budget), or a sentence saying nothing changed."""
        diffs = [p.diff for p in self.changed()]
        if not diffs:
            return "(no file was changed in this run)"
        text = "".join(diffs)
        if len(text) > MAX_DIFF_CHARS:
            text = text[:MAX_DIFF_CHARS] + "\n…[diff cut]"
        return text

    # --- running the tests ----------------------------------------------------------------
    async def run_tests(self) -> Check | None:
        """Run the workspace's tests (when the mode may): the check, also recorded; None
        when they cannot run (no runner detected, no sandbox)."""
        if not self.may_run_tests or self.tests is None:
            return None
        state = self._state()
        result = await self.tests()
        check = suite_check(result)
        self.last_suite, self._tested = result, state
        uncalled = self._uncalled() if check is None or check.passed else []
        if check is not None:
            if uncalled:
                # passing tests that never call what the goal changes confirm nothing of it
                check.specific = False
                check.detail += f"; but no test calls {', '.join(uncalled)}"
            self.checks["tests"] = check
        self._outcome = check
        if uncalled and self.command is not None and (shown := await examples.check(self.run, self.command, self.changed_paths(), uncalled)) is not None:
            self.checks["examples"] = shown
            self._outcome = shown  # what the description's examples say stands in for the tests
        return self._outcome

    def _uncalled(self) -> list[str]:
        """The functions the goal names (and this run changed) that no test file calls."""
        reading = self.run.reading
        if not reading.names:
            return []
        texts = [evidence.text_now(self.run, f) for f in reading.tests]
        changed = "".join(evidence.text_now(self.run, p) for p in self.changed_paths())
        names = [n for n in reading.names if re.search(rf"\bdef {re.escape(n)}\b", changed)]
        return [n for n in names if not any(re.search(rf"(?<![\w.]){re.escape(n)}\s*\(", t) for t in texts)]

    async def reached(self) -> bool:
        """Positive evidence that a goal the tests decide is met: it asks for a change, the
        run changed files, nothing is missing, and the workspace's tests now run and pass.
        The loop then ends the run instead of asking for more."""
        if not self.wants_change or not self.run.reading.tests_matter or not self.may_run_tests:
            return False
        if self._static_failure() or not self.changed():
            return False
        outcome = await self.tests_now()
        return outcome is not None and outcome.passed

    async def failure(self) -> str | None:
        """Why the run must not end `completed`, or None (recording the checks). A test
        run recorded before the last change is run again, or dropped when nothing changed:
        the report must not quote the tests as they failed before the fix."""
        reason = self._static_failure()
        if reason is not None and "tests" in self.checks and not self._fresh_tests():
            if self.changed() and self.may_run_tests:
                await self.tests_now()
            else:
                self.checks.pop("tests", None)
                self.checks.pop("examples", None)
        if reason is None and self.changed():
            outcome = await self.tests_now()
            if outcome is not None and not outcome.passed:
                what = "the description's examples fail" if outcome.kind == "examples" else "the workspace's tests fail"
                reason = f"not done: {what} after the change ({outcome.summary})"
        return reason

    async def tests_now(self) -> Check | None:
        """The tests' check for the files as they are now: the last run's when nothing
        changed since, else a new run."""
        return self._outcome if self._fresh_tests() else await self.run_tests()

    def _fresh_tests(self) -> bool:
        """The recorded test run saw the files as they are now (no change since)."""
        return self._outcome is not None and self._tested == self._state()

    def _state(self) -> tuple[tuple[str, str], ...]:
        return tuple((p.id, p.status) for p in self.changed())

    def _static_failure(self) -> str | None:
        changed = self.changed()
        if why := self.impossible():
            return f"not done: {why} (it was not there when the run started), so it cannot be done as asked"
        if self.wants_change and not changed:
            self.checks["goal"] = Check("goal", False, "no file was changed")
            return (
                "not done: the goal asks for a change, but the run changed no file "
                "(no edit was applied or is pending)"
            )
        missing = self.missing()
        if missing is not None:
            self.checks["goal"] = Check("goal", False, missing)
            return f"not done: {missing}"
        broken = sorted({c.path for p in changed for c in p.changes if c.new is not None and evidence.breaks(self.run, c.path)})
        if changed:
            self.checks["parse"] = Check(
                "parse", not broken, ("no longer parse: " + ", ".join(broken)) if broken else "the changed files parse"
            )
        if broken:
            return "not done: the change leaves files that no longer parse: " + ", ".join(broken)
        if self.wants_change:
            self.checks["goal"] = Check("goal", True, self._goal_detail(), specific=self._specific())
        return None

    def _specific(self) -> bool:
        """Whether the goal's own check says more than "something changed" (a value, a
        rename, a docstring, a new file there). A new test file is not enough: tests that
        never ran (dev mode) may not even import — the 1.5B's once imported itself."""
        reading = self.run.reading
        made = [f for f in reading.new_files if not is_test_file(f)]
        return bool(
            reading.values
            or (reading.kind == "rename" and reading.rename)
            or reading.module_doc
            or made
            or reading.kind == "docstring"
        )  # new tests are checked by running them (a `tests` check), not by being there

    def _goal_detail(self) -> str:
        reading = self.run.reading
        parts = []
        if reading.values:
            parts.append(f"the changed lines hold {', '.join(reading.values)}")
        if reading.kind == "rename" and reading.rename:
            parts.append(f"no use of {reading.rename[0]} is left")
        if reading.new_files:
            parts.append(f"{', '.join(reading.new_files)} made")
        if not parts:
            parts.append("the files the goal names changed")
        return "; ".join(parts)
