"""The watchdog: the same tool call with the same arguments, again and again.

It counts identical calls in a row (name and canonical arguments). When a call reaches
`repeats` in a row it is not run: the model is told it has that result already, with its
gist (`CallRejected(repeated=True)`: the turn policy then stops offering that tool in
this task, so the next turn offers what moves on — finish with what is in hand, or another
tool). A call made before in this task, in any order, with no file changed by the run
since, is turned away the same way: its answer cannot have changed (the 1.5B searched
five names in a cycle, fifteen calls, before the cycle limit turned one away). A call
that failed is told it would fail again, and its tool stays offered: other arguments may
work. More of the same — in a row, or more than `CYCLE_LIMIT` times in one task in any
order — is turned away again while the task has something in hand (a successful result),
and stops the run (`RunFailed`) only when it has nothing. A different call, or the end of
a task (`finish`), resets it; `finish` itself is never counted (the done check decides
whether a repeated finish may end the run).

A call identical to an earlier one that changed a file (its output names a proposal that
was applied or is pending) is not run even once more, whenever it comes: small models
often redo an edit that worked, get "old text was not found", and then rewrite the file.
The model is told the change is already in place — the success is named, not the
repetition. Any STUCK_LIMIT calls in a row that were all turned away or failed stop the run
("no progress"). What the model is told is text in prompts/watchdog.toml.
Must not know: what the tools do, the loop's internals, models, LSP.
"""

from __future__ import annotations

import json

from agentls.agent.actions import ActionFailure, ActionResult, ParsedCall, changed_file
from agentls.agent.outcomes import CallRejected, RunFailed, TaskDone
from agentls.agent.prompts import texts
from agentls.agent.protocols import AfterExecute, AfterParse, ExecutionFailure

#: The same call made this many times in one task, in any order, is enough: the next one
#: is turned away, and the one after that stops the run (a model going round in circles).
CYCLE_LIMIT = 3
#: Calls in a row turned away or failed (any mix) before the run is stopped: a model that
#: walks the tool list with made-up arguments (the 0.5B) makes no progress, only time.
STUCK_LIMIT = 8
#: Characters of an earlier result quoted back when its call is turned away.
GIST_CHARS = 400


def _told(key: str, **values: object) -> str:
    """The line `key` of prompts/watchdog.toml, filled with `values`."""
    return str(texts("watchdog")[key]).format(**values)


class WatchdogComponent(AfterParse, AfterExecute, ExecutionFailure):
    def __init__(self, repeats: int = 2) -> None:
        super().__init__()
        self.repeats = max(1, repeats)
        self._last: str | None = None
        self._count = 0
        self._changes: dict[str, str] = {}  # call key → the path it changed
        self._seen: dict[str, int] = {}  # call key → times made in this task, in any order
        self._results: dict[str, str] = {}  # call key → its last result, as the model saw it
        self._stuck = 0  # calls in a row that were turned away or failed
        self._ok = 0  # successful calls in this task
        self._epoch = 0  # changes the run's calls made so far
        self._made_at: dict[str, int] = {}  # call key → `_epoch` when it last ran, this task
        self._failed: set[str] = set()  # call keys whose last run failed

    def after_parse(self, result: ParsedCall) -> None:
        if result.name == "finish":
            # a repeated finish is the done check's business: after its nudge ("call finish
            # again saying why") the same finish is the model's answer, not a loop
            return
        if self._stuck >= STUCK_LIMIT:
            raise RunFailed(
                f"watchdog: no progress: the last {self._stuck} calls were all turned away or "
                "failed; the run was stopped"
            )
        try:
            self._check(result)
        except CallRejected:
            self._stuck += 1
            raise

    def _check(self, result: ParsedCall) -> None:
        key = result.key()
        changed = self._changes.get(key)
        if changed is not None:
            self._seen[key] = self._seen.get(key, 0) + 1
            if self._seen[key] > 2:
                self._last, self._count = None, 0
                self._seen.clear()
                # made, then told it is in place, and made again: the model has nothing
                # else to do for this task but does not say so (the 0.5B renamed Usr to User
                # right, then repeated the rename until the run was stopped). The task ends
                # as if it had called finish; the done check still judges the run.
                raise TaskDone(_told("ended", path=changed, name=result.name))
            raise CallRejected(_told("changed", name=result.name, path=changed), repeated=True)
        self._count = self._count + 1 if key == self._last else 1
        self._last = key
        self._seen[key] = seen = self._seen.get(key, 0) + 1
        args = json.dumps(result.arguments, ensure_ascii=False, sort_keys=True)
        if seen > CYCLE_LIMIT + 1 or self._count > self.repeats:
            if not self._in_hand:
                raise RunFailed(
                    f"watchdog: the model called {result.name} with the same arguments {args} "
                    f"{seen} times in this task, with nothing else in hand; the run was stopped"
                )
            raise CallRejected(self._use_it(result.name, key), repeated=True)
        if seen > CYCLE_LIMIT and self._count < self.repeats:
            told = _told("circles", name=result.name, times=seen - 1, gist=self._gist(key))
            raise CallRejected(told, repeated=True)
        again = self._count == self.repeats and self.repeats > 1
        if again or self._made_at.get(key) == self._epoch:
            # made before, and nothing changed since: the same answer again
            if key in self._failed:
                # the tool is not at fault, its arguments are: it stays offered
                raise CallRejected(_told("failed_again", name=result.name, gist=self._gist(key)))
            raise CallRejected(self._use_it(result.name, key), repeated=True)

    def _use_it(self, name: str, key: str) -> str:
        return _told("use_it", name=name, gist=self._gist(key))

    @property
    def _in_hand(self) -> bool:
        """Whether the task has any successful result (the answer may be in hand)."""
        return self._ok > 0

    def _gist(self, key: str) -> str:
        """' It answered: …' — the earlier result, short, so the model need not look back."""
        text = self._results.get(key)
        if not text:
            return ""
        shown = text[:GIST_CHARS] + ("…" if len(text) > GIST_CHARS else "")
        return _told("gist", text=shown)

    def execution_failure(self, error: ActionFailure) -> None:
        self._stuck += 1
        key = error.result.call.key()
        self._results[key] = error.result.message_text()
        self._made_at[key] = self._epoch
        self._failed.add(key)

    def after_execute(self, result: ActionResult) -> None:
        self._stuck = 0
        self._ok += 1
        self._results[result.call.key()] = result.message_text()
        self._failed.discard(result.call.key())
        changed = changed_file(result)
        if changed is not None:
            self._changes[result.call.key()] = changed
            self._epoch += 1
        self._made_at[result.call.key()] = self._epoch
        if result.finished is not None:
            self._last, self._count, self._ok = None, 0, 0
            self._seen.clear()
            self._made_at.clear()
            self._failed.clear()
