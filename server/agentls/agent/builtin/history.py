"""Short-term memory: the current task's conversation, trimmed to a token budget.

On acting turns it gives the task's opening prompt, then a summary of the task's older
steps (one extractive line per step: the call and the start of its result), then the
latest steps verbatim (at most `keep_last`, as many as fit). Tokens are estimated as
characters / 4. A single message larger than half the budget is cut in the middle. The
budget is `RunSettings.history_tokens`, else half the model's context window, less what
the project's rules and the goal's mentions take of every prompt (at least 1024 tokens). Earlier
tasks appear through their results in the task prompt, not here. Planning turns get
nothing from this component. Must not know: the loop's internals, tools, models, LSP.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agentls.agent.context import RunContext
from agentls.agent.prompts import render
from agentls.agent.protocols import MessageProvider
from agentls.agent.transcript import Step, message_chars
from agentls.llm.base import Message

CHARS_PER_TOKEN = 4
_LINE_CHARS = 160


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _one_line(text: str, limit: int = _LINE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _result_text(content: str) -> str:
    try:
        value: Any = json.loads(content)
    except ValueError:
        return _one_line(content)
    if isinstance(value, dict) and value.get("ok") is False:
        err = value.get("error") or {}
        return _one_line(f"error ({err.get('type')}): {err.get('message')}")
    if isinstance(value, dict) and "output" in value:
        return "ok: " + _one_line(json.dumps(value["output"], ensure_ascii=False))
    return _one_line(content)


def _writes_whole_file(messages: list[Message]) -> bool:
    return any(
        (call.get("function") or {}).get("name") == "write_file"
        for m in messages
        for call in m.get("tool_calls") or ()
    )


def _error_of(message: Message) -> str:
    """A refused call's error message (the first sentence), or ""."""
    try:
        value = json.loads((message.get("content") or "").partition("\n\n")[0])
    except ValueError:
        return ""
    error = value.get("error") if isinstance(value, dict) else None
    return str(error.get("message") or "").split(" — ")[0].split(". ")[0] if isinstance(error, dict) else ""


def _failures_of(message: Message) -> str:
    """What a write's result said after the result itself: the checks' failures."""
    _, _, rest = (message.get("content") or "").partition("\n\n")
    return rest.strip()


def summary_line(step: Step) -> str:
    """One extractive line for a step: what was called and what came back."""
    calls: list[str] = []
    answers: list[str] = []
    for msg in step.messages:
        if msg.get("role") == "assistant":
            for call in msg.get("tool_calls") or ():
                fn = call.get("function", {})
                calls.append(f"{fn.get('name')}({_one_line(fn.get('arguments') or '', 80)})")
        elif msg.get("role") == "tool":
            answers.append(_result_text(msg.get("content") or ""))
        elif msg.get("role") == "user":
            answers.append("told: " + _one_line(msg.get("content") or ""))
    said = calls[0] if calls else "(no tool call)"
    return f"- {said} → {answers[0] if answers else '(no answer)'}"


def cut(message: Message, limit: int) -> Message:
    """`message` with its content cut in the middle to about `limit` characters."""
    content = message.get("content") or ""
    if len(content) <= limit:
        return message
    keep = max(limit - 60, 200) // 2
    dropped = len(content) - 2 * keep
    return {
        **message,
        "content": f"{content[:keep]}\n…[{dropped} characters cut]…\n{content[-keep:]}",
    }


class HistoryComponent(MessageProvider):
    def __init__(self, run: RunContext, keep_last: int = 8) -> None:
        super().__init__()
        self.run = run
        self.keep_last = keep_last

    @property
    def budget_chars(self) -> int:
        tokens = self.run.settings.history_tokens or max(self.run.context_tokens // 2, 1024)
        # the rules and mentions every prompt carries take their room from the history's
        return max(tokens * CHARS_PER_TOKEN - self.run.context_chars, 1024 * CHARS_PER_TOKEN)

    def get_messages(self) -> Iterator[Message]:
        if self.run.turn != "act" or self.run.task is None:
            return
        index = self.run.task_index()
        prompt = self.run.transcript.prompt(index)
        steps = self.run.transcript.steps_of(index)
        budget = self.budget_chars
        per_message = max(budget // 2, 1000)
        if prompt is not None:
            prompt = cut(prompt, per_message)
            budget -= message_chars(prompt)
            yield prompt
        recent: list[list[Message]] = []
        for step in reversed(steps):
            if len(recent) >= self.keep_last:
                break
            shown = [cut(m, per_message) for m in self._unwritten(step.messages)]
            size = sum(message_chars(m) for m in shown)
            if size > budget and recent:
                break
            recent.insert(0, shown)
            budget -= size
        older = steps[: len(steps) - len(recent)]
        if older:
            yield {"role": "user", "content": self._summary(older, budget)}
        for messages in recent:
            yield from messages

    def _unwritten(self, messages: list[Message]) -> list[Message]:
        """With fresh tries, a step that wrote a version whose checks failed is told as
        what it was — "your version … failed: <failures>" — without its code or its call: a
        small model shown its failed version, or any stand-in for it, writes it again."""
        if not self.run.fresh_tries or not self.run.attempt or not _writes_whole_file(messages):
            return messages
        said = [_failures_of(m) for m in messages if m.get("role") in ("tool", "user")]
        text = "\n".join(t for t in said if t)
        if not text:  # the write was refused or turned away: say so, without its code
            reasons = [_error_of(m) for m in messages if m.get("role") == "tool"]
            return [{"role": "user", "content": render("fresh_refused", reason="; ".join(r for r in reasons if r) or "it was not run")}]
        return [{"role": "user", "content": render("fresh_result", failures=text)}]

    @staticmethod
    def _summary(steps: list[Step], budget: int) -> str:
        lines: list[str] = []
        used = 0
        for step in reversed(steps):
            line = summary_line(step)
            if lines and used + len(line) + 1 > max(budget, _LINE_CHARS * 4):
                break
            lines.insert(0, line)
            used += len(line) + 1
        omitted = len(steps) - len(lines)
        head = f"Summary of {len(steps)} earlier step(s) of this task"
        if omitted:
            head += f" ({omitted} oldest not shown)"
        return head + ":\n" + "\n".join(lines)
