"""The run's full record of acting turns: each task's opening prompt and its steps.

A step is the messages one acting turn added: the assistant's reply and the answers to
it (tool messages with the call's id, or a user message when there was no call). The
transcript keeps everything; the history component decides what the model sees.
`estimated_usage` counts a turn's tokens (characters / 4) for a provider that reports none.
Must not know: how history is trimmed, the model, tools, LSP.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from agentls.llm.base import Message, ModelTurn, ToolSpec, Usage

CHARS_PER_TOKEN = 4


def message_chars(message: Message) -> int:
    size = len(message.get("content") or "")
    for call in message.get("tool_calls") or ():
        fn = call.get("function", {})
        size += len(fn.get("name", "")) + len(fn.get("arguments", "")) + 16
    return size + 8  # role and framing


def estimated_usage(messages: list[Message], tools: list[ToolSpec] | None, turn: ModelTurn) -> Usage:
    """A turn's usage estimated from its text (characters / 4): the messages and tools sent,
    the reply received; the reported cost kept."""
    sent = sum(message_chars(m) for m in messages) + (len(json.dumps(tools)) if tools else 0)
    received = message_chars(turn.as_message())
    return Usage(-(-sent // CHARS_PER_TOKEN), -(-received // CHARS_PER_TOKEN), turn.usage.cost)


@dataclass(slots=True)
class Step:
    task: int  # index into RunState.tasks
    messages: list[Message]
    chars: int = field(default=0)

    def __post_init__(self) -> None:
        if not self.chars:
            self.chars = sum(message_chars(m) for m in self.messages)


class Transcript:
    def __init__(self) -> None:
        self._prompts: dict[int, Message] = {}
        self.steps: list[Step] = []

    def begin_task(self, task: int, prompt: Message) -> None:
        self._prompts[task] = prompt

    def prompt(self, task: int) -> Message | None:
        return self._prompts.get(task)

    def add(self, task: int, messages: list[Message]) -> Step:
        step = Step(task, messages)
        self.steps.append(step)
        return step

    def steps_of(self, task: int) -> list[Step]:
        return [s for s in self.steps if s.task == task]
