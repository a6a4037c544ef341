"""Reading the model's replies: a planning turn's task list, an acting turn's tool call.

A reply that cannot be used is a `BadReply` carrying the message the model is told (and
the id of the call it is about, when there is one). Planning replies are read leniently
(code fences and text around the array are ignored); acting replies need exactly one
call to a known command with JSON-object arguments that fit the command's schema. Extra
calls in the same reply are not run (each gets a "not run" answer).
Must not know: the loop, tools' internals, models, LSP.
"""

from __future__ import annotations

import json
import re

from agentls.agent.actions import ParsedCall
from agentls.agent.command import Command
from agentls.llm.base import ModelTurn, ToolCall

_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_MAX_SHOWN = 300


class BadReply(Exception):
    def __init__(self, message: str, call_id: str | None = None, tool: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.call_id = call_id
        self.tool = tool


def _shown(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def parse_tasks(content: str | None) -> list[str]:
    """The task titles of a planning reply (a JSON array of strings)."""
    text = _FENCE.sub("", (content or "").strip()).strip()
    if not text:
        raise BadReply("The reply was empty. Answer with only a JSON array of task strings.")
    start, end = text.find("["), text.rfind("]")
    candidate = text[start : end + 1] if 0 <= start < end else text
    try:
        value = json.loads(candidate, strict=False)
    except json.JSONDecodeError as exc:
        raise BadReply(
            f"The reply is not a JSON array of strings ({exc.msg}): {_shown(text)!r}. "
            'Answer with only a JSON array, e.g. ["Read src/app.py"], or [].'
        ) from None
    if isinstance(value, dict) and isinstance(value.get("tasks"), list):
        value = value["tasks"]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadReply(
            f"The reply must be a JSON array of strings, got {_shown(json.dumps(value))}. "
            'Answer with only a JSON array, e.g. ["Read src/app.py"], or [].'
        )
    return [v.strip() for v in value if v.strip()]


def parse_call(turn: ModelTurn, commands: dict[str, Command], offered: list[str] | None = None) -> ParsedCall:
    """The one tool call of an acting reply, parsed and checked; a bad one names the tools
    `offered` this turn (default: every command)."""
    known = ", ".join(commands if offered is None else offered) or "(none)"
    if not turn.tool_calls:
        raise BadReply(
            f"The reply called no tool. Every reply must call exactly one tool; "
            f"the tools are: {known}. Call finish when the task is done."
        )
    call: ToolCall = turn.tool_calls[0]
    command = commands.get(call.name)
    if command is None:
        raise BadReply(
            f"Unknown tool {call.name!r}. The tools are: {known}.", call.id, str(call.name)
        )
    raw = (call.arguments or "").strip()
    try:
        arguments = json.loads(raw, strict=False) if raw else {}
    except json.JSONDecodeError as exc:
        raise BadReply(
            f"The arguments of {call.name} are not valid JSON ({exc.msg} at character "
            f"{exc.pos}): {_shown(raw)!r}. Give them as one JSON object.",
            call.id,
            call.name,
        ) from None
    if not isinstance(arguments, dict):
        raise BadReply(
            f"The arguments of {call.name} must be a JSON object, got {type(arguments).__name__}.",
            call.id,
            call.name,
        )
    problem = command.check(arguments)
    if problem:
        raise BadReply(f"Invalid arguments for {call.name}: {problem}", call.id, call.name)
    return ParsedCall(id=call.id, name=call.name, arguments=arguments, thought=turn.content)
