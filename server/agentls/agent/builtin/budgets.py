"""Budgets: acting steps, model tokens, wall time, and cost when the provider reports it.

Checked whenever a turn's messages are gathered (before every model call) and after every
parsed call (before it runs): a spent budget raises `BudgetExhausted`, which ends the run
`budget_exhausted`. `max_steps` counts acting turns: with N, the N-th acting turn still
runs, the (N+1)-th does not. Near the end of the step budget the model is warned.
Must not know: the loop's internals, tools, models, LSP.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentls.agent.actions import ParsedCall
from agentls.agent.context import RunContext
from agentls.agent.outcomes import BudgetExhausted
from agentls.agent.protocols import AfterParse, MessageProvider
from agentls.llm.base import Message

WARN_STEPS_LEFT = 2


class BudgetsComponent(MessageProvider, AfterParse):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run

    def check(self, *, steps: bool) -> None:
        s, state = self.run.settings, self.run.state
        if steps and state.steps >= s.max_steps:
            raise BudgetExhausted(
                f"step budget exhausted: all {s.max_steps} acting steps were used"
            )
        if s.token_budget is not None and state.tokens >= s.token_budget:
            raise BudgetExhausted(
                f"token budget exhausted: {state.tokens} model tokens used "
                f"(budget {s.token_budget})"
            )
        if s.time_budget_s is not None and state.elapsed_s >= s.time_budget_s:
            raise BudgetExhausted(
                f"time budget exhausted: {state.elapsed_s:.1f} s elapsed "
                f"(budget {s.time_budget_s:g} s)"
            )
        cost = state.usage.cost
        if s.cost_budget is not None and cost is not None and cost >= s.cost_budget:
            raise BudgetExhausted(
                f"cost budget exhausted: {cost:.4f} spent (budget {s.cost_budget:g})"
            )

    def get_messages(self) -> Iterator[Message]:
        acting = self.run.turn == "act"
        self.check(steps=acting)
        left = self.run.settings.max_steps - self.run.state.steps
        if acting and left <= WARN_STEPS_LEFT:
            yield {
                "role": "user",
                "content": f"Only {left} step(s) left in this run's budget: "
                "finish the task now if you can.",
            }

    def after_parse(self, result: ParsedCall) -> None:
        self.check(steps=False)
