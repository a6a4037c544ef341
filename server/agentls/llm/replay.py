"""Recorded model turns: `ReplayModel` plays a transcript back, `Recorder` writes one.

The file is JSON Lines, one model turn per line, in order (AGENT.md):
    {"request": {"kind": "plan" | "act", "messages_tail": [...][, "guided": true]},
     "response": {"content": str | null,
                  "tool_calls": [{"id", "name", "arguments": "<json text>"}],
                  "usage": {"prompt_tokens", "completion_tokens"[, "cost"]}}}
`request` is optional (hand-written transcripts give only `response`); when it names a
kind, a replayed turn of the other kind is a ModelError (the run diverged from the
recording); `guided` (a tiny model's run, agent/guide.py) on the first line replays the
run as guided. A line may hold `"stream": [pieces]`, the output as a streaming model
generated it (recorded from one): replayed to the run's `on_text` before the turn. For hand-written transcripts, `arguments` may also be a JSON object, a call's
`id` may be left out, and an optional top-level `"delay_s"` makes the turn take that long.
Running past the end raises ModelError("replay exhausted after N turns"). The file is read
on the first turn. Must not know: the agent loop, tools, LSP.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentls.llm.base import ChatModel, Message, ModelError, ModelTurn, ToolCall, ToolSpec, Usage

REPLAY_CONTEXT_TOKENS = 1_000_000


def _kind(tools: list[ToolSpec] | None) -> str:
    return "plan" if tools is None else "act"


def turn_to_dict(turn: ModelTurn) -> dict[str, Any]:
    """The `response` object of a turn."""
    usage: dict[str, Any] = {
        "prompt_tokens": turn.usage.prompt_tokens,
        "completion_tokens": turn.usage.completion_tokens,
    }
    if turn.usage.cost is not None:
        usage["cost"] = turn.usage.cost
    return {
        "content": turn.content,
        "tool_calls": [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in turn.tool_calls
        ],
        "usage": usage,
    }


def turn_from_dict(response: Any, where: str) -> ModelTurn:
    """A turn from a `response` object; ModelError naming `where` when it is malformed."""
    if not isinstance(response, dict):
        raise ModelError(f"{where}: 'response' must be an object")
    content = response.get("content")
    if content is not None and not isinstance(content, str):
        raise ModelError(f"{where}: 'content' must be a string or null")
    calls: list[ToolCall] = []
    for i, raw in enumerate(response.get("tool_calls") or []):
        if not isinstance(raw, dict):
            raise ModelError(f"{where}: tool call {i} must be an object")
        nested = raw.get("function")
        fn: dict[str, Any] = nested if isinstance(nested, dict) else raw
        name = fn.get("name")
        if not isinstance(name, str):
            raise ModelError(f"{where}: tool call {i} has no name")
        arguments = fn.get("arguments", "")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        calls.append(ToolCall(id=str(raw.get("id") or f"call_{i}"), name=name, arguments=arguments))
    raw_usage = response.get("usage") or {}
    try:
        usage = Usage(
            prompt_tokens=int(raw_usage.get("prompt_tokens", 0)),
            completion_tokens=int(raw_usage.get("completion_tokens", 0)),
            cost=float(raw_usage["cost"]) if raw_usage.get("cost") is not None else None,
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise ModelError(f"{where}: bad 'usage': {exc}") from None
    return ModelTurn(content=content, tool_calls=calls, usage=usage, raw=response)


def _first_request(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8") as fh:
            first = json.loads(fh.readline() or "{}")
    except (OSError, ValueError):
        return {}
    request = first.get("request") if isinstance(first, dict) else None
    return request if isinstance(request, dict) else {}


class ReplayModel:
    """Plays back a recorded transcript, one turn per `complete` call."""

    def __init__(
        self, path: str | os.PathLike[str], *, context_tokens: int = REPLAY_CONTEXT_TOKENS
    ) -> None:
        self.path = Path(path)
        self.name = f"replay:{path}"
        self.context_tokens = context_tokens
        self._lines: list[tuple[int, dict[str, Any]]] | None = None
        self._next = 0
        #: A recording of a small model's run starts with an acting turn (no planning turn
        #: for a one-step goal): replay it as the same kind of model.
        first = _first_request(self.path)
        self.small = first.get("kind") == "act"
        self.guided = bool(first.get("guided"))
        self.streams = True  # a line's recorded `stream` pieces are played to on_text

    @property
    def position(self) -> int:
        """How many turns were played."""
        return self._next

    def _load(self) -> list[tuple[int, dict[str, Any]]]:
        if self._lines is not None:
            return self._lines
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ModelError(
                f"cannot read the replay file {self.path}: {exc.strerror or exc}"
            ) from None
        lines: list[tuple[int, dict[str, Any]]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except ValueError as exc:
                raise ModelError(f"{self.path}:{number}: not JSON: {exc}") from None
            if not isinstance(value, dict) or "response" not in value:
                raise ModelError(f"{self.path}:{number}: each line needs a 'response' object")
            turn_from_dict(value["response"], f"{self.path}:{number}")  # fail early
            lines.append((number, value))
        self._lines = lines
        return lines

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
        on_text: Callable[[str], None] | None = None,
        attempt: int = 0,
    ) -> ModelTurn:
        lines = self._load()
        if self._next >= len(lines):
            raise ModelError(f"replay exhausted after {len(lines)} turns ({self.path})")
        number, line = lines[self._next]
        self._next += 1
        where = f"{self.path}:{number}"
        raw_request = line.get("request")
        request: dict[str, Any] = raw_request if isinstance(raw_request, dict) else {}
        recorded, asked = request.get("kind"), _kind(tools)
        if recorded is not None and recorded != asked:
            raise ModelError(
                f"{where}: turn {self._next} was recorded for a {recorded!r} turn, "
                f"but the run asked for a {asked!r} turn (the run diverged from the recording)"
            )
        delay = line.get("delay_s")
        if isinstance(delay, int | float) and delay > 0:
            await asyncio.sleep(delay)
        pieces = line.get("stream")
        if on_text is not None and isinstance(pieces, list):
            for piece in pieces:
                if isinstance(piece, str):
                    on_text(piece)
        return turn_from_dict(line["response"], where)

    async def aclose(self) -> None:
        return None


class Recorder:
    """Wraps a model and appends each turn it makes to a JSONL file (replayable)."""

    def __init__(self, model: ChatModel, path: str | os.PathLike[str], *, tail: int = 2) -> None:
        self.model = model
        self.path = Path(path)
        self.tail = tail
        self.name = model.name
        self.context_tokens = model.context_tokens
        self.small = bool(getattr(model, "small", False))  # the loop treats it as the model
        self.guided = bool(getattr(model, "guided", False))
        self.streams = bool(getattr(model, "streams", False))
        self.varies = bool(getattr(model, "varies", False))
        self._lock = threading.Lock()

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
        on_text: Callable[[str], None] | None = None,
        attempt: int = 0,
    ) -> ModelTurn:
        pieces: list[str] = []

        def heard(piece: str) -> None:
            pieces.append(piece)
            if on_text is not None:
                on_text(piece)

        extra: dict[str, Any] = {"on_text": heard} if self.streams else {}
        if self.varies:
            extra["attempt"] = attempt
        turn = await self.model.complete(messages, tools=tools, json_schema=json_schema, **extra)
        line: dict[str, Any] = {
            "request": {
                "kind": _kind(tools),
                "messages_tail": messages[-self.tail :] if self.tail else [],
                **({"guided": True} if self.guided else {}),
            },
            "response": turn_to_dict(turn),
        }
        if pieces:
            line["stream"] = pieces
        text = json.dumps(line, ensure_ascii=False, default=str) + "\n"
        try:
            with self._lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(text)
        except OSError as exc:
            raise ModelError(
                f"cannot write the recording {self.path}: {exc.strerror or exc}"
            ) from None
        return turn

    async def aclose(self) -> None:
        await self.model.aclose()
