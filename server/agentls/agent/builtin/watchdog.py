"""The watchdog: the same tool call with the same arguments, again and again.

It counts identical calls in a row (name and canonical arguments). When a call reaches
`repeats` in a row it is not run: the model is told so (`CallRejected`). One more and the
run fails (`RunFailed`) with a message naming the call. A different call, or the end of a
task (`finish`), resets it.
Must not know: what the tools do, the loop's internals, models, LSP.
"""

from __future__ import annotations

import json

from agentls.agent.actions import ActionResult, ParsedCall
from agentls.agent.outcomes import CallRejected, RunFailed
from agentls.agent.protocols import AfterExecute, AfterParse


class WatchdogComponent(AfterParse, AfterExecute):
    def __init__(self, repeats: int = 2) -> None:
        super().__init__()
        self.repeats = max(1, repeats)
        self._last: str | None = None
        self._count = 0

    def after_parse(self, result: ParsedCall) -> None:
        key = result.key()
        self._count = self._count + 1 if key == self._last else 1
        self._last = key
        args = json.dumps(result.arguments, ensure_ascii=False, sort_keys=True)
        if self._count > self.repeats:
            raise RunFailed(
                f"watchdog: the model called {result.name} with the same arguments {args} "
                f"{self._count} times in a row after being told not to; the run was stopped"
            )
        if self._count == self.repeats and self.repeats > 1:
            raise CallRejected(
                f"Not run: you have called {result.name} with exactly these arguments "
                f"{self._count} times in a row, and its result will not change. Use the "
                "earlier result, try something different, or call finish. The same call "
                "once more stops the run."
            )

    def after_execute(self, result: ActionResult) -> None:
        if result.finished is not None:
            self._last, self._count = None, 0
