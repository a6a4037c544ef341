"""Short-term memory: the current task's conversation, trimmed to a token budget.

On acting turns it gives the task's opening prompt, then a summary of the task's older
steps (one extractive line per step: the call and the start of its result), then the
latest steps verbatim (at most `keep_last`, as many as fit). Tokens are estimated as
characters / 4. A single message larger than half the budget is cut in the middle. The
budget is `RunSettings.history_tokens`, else half the model's context window. Earlier
tasks appear through their results in the task prompt, not here. Planning turns get
nothing from this component. Must not know: the loop's internals, tools, models, LSP.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agentls.agent.context import RunContext
from agentls.agent.protocols import MessageProvider
from agentls.agent.transcript import Step, message_chars
from agentls.llm.base import Message

CHARS_PER_TOKEN = 4
#: What an earlier write's code is shown as, with fresh tries.
FAILED_VERSION = "# (a version whose checks failed: not shown; the failures are in its result)\n"
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


def _without_code(message: Message) -> Message:
    """A write's result without the code it wrote (its diff and changed lines): its status
    and, after it, the checks' failures stay."""
    content = message.get("content") or ""
    head, sep, rest = content.partition("\n\n")
    try:
        value = json.loads(head)
    except ValueError:
        return message
    out = value.get("output") if isinstance(value, dict) else None
    if not isinstance(out, dict) or "proposal_id" not in out:
        return message
    kept = {k: out[k] for k in ("proposal_id", "path", "status") if k in out}
    return {**message, "content": json.dumps({"ok": True, "output": kept}, ensure_ascii=False) + sep + rest}


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
        return tokens * CHARS_PER_TOKEN

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
            shown = [cut(self._unwritten(m), per_message) for m in step.messages]
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

    def _unwritten(self, message: Message) -> Message:
        """With fresh tries, an earlier write's code is not shown (its failures are): a
        small model shown its failed version writes it again."""
        if not self.run.fresh_tries or not self.run.attempt:
            return message
        if message.get("role") == "tool":
            return _without_code(message)
        calls = message.get("tool_calls")
        if not calls:
            return message
        out = []
        for call in calls:
            fn = call.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = None
            if fn.get("name") == "write_file" and isinstance(args, dict) and "content" in args:
                args["content"] = FAILED_VERSION
                call = {**call, "function": {**fn, "arguments": json.dumps(args, ensure_ascii=False)}}
            out.append(call)
        return {**message, "tool_calls": out}

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
