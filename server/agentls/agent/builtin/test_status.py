"""The tests as the run found them: for a goal that starts from failing tests (fix the
code so they pass), the workspace's tests run once before the first acting turn and
their failures — in compact form: the failing test, its assertion, the frame where the
code broke — are shown in every acting prompt, so the model starts from what fails
rather than from a guess. Only where the mode may run processes; a run that could not
run them shows nothing (the verification says the tests were not run).
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from agentls.agent.builtin.done_check import DoneCheckComponent
from agentls.agent.context import RunContext
from agentls.agent.prompts import render
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message


class TestStatusComponent(MessageProvider):
    def __init__(self, run: RunContext, check: DoneCheckComponent) -> None:
        super().__init__()
        self.run = run
        self.check = check
        self._text: str | None = None

    async def get_messages(self) -> AsyncIterator[Message]:
        reading = self.run.reading
        if self.run.turn != "act" or reading.kind != "fix_tests" or not self.check.may_run_tests:
            return
        if self._text is None:
            self._text = ""
            outcome = await self.check.run_tests()
            if outcome is not None and not outcome.passed:
                self._text = render("tests_start", failures=outcome.detail)
        if self._text:
            yield {"role": "user", "content": self._text}
