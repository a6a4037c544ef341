"""One model turn of a run: its prompt, the commands on offer, and the model call.

`Turns.prompt()` assembles the system prompt from the components' directives
(constraints, resources, best practices; the unavailable tools when the policy lists them)
followed by the components' messages, and collects the commands (a name offered twice
keeps the first, noted once in the pipeline's trace). `Turns.complete()` calls the model,
cancellable, with its output streamed as `stream` events (`Streamer`) when the model
streams, a retry's attempt number when it varies its sampling, the usage counted (estimated
when the provider counts nothing) and the model's seconds added to the run's.
Must not know: the loop's tasks, LSP, which provider the model is.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from agentls.agent.command import Command
from agentls.agent.context import RunContext
from agentls.agent.execution import available, unavailable_lines
from agentls.agent.outcomes import RunFailed
from agentls.agent.pipeline import Pipeline
from agentls.agent.policy import TurnPolicy
from agentls.agent.prompts import bullets, render
from agentls.agent.protocols import CommandProvider, DirectiveProvider, MessageProvider
from agentls.agent.transcript import estimated_usage
from agentls.llm.base import TASKS_SCHEMA, ChatModel, Message, ModelTurn, ToolSpec, cancellable

Emit = Callable[[str, dict[str, Any]], None]
#: A model's streamed output is sent on at most this often (a `stream` event).
STREAM_EVERY_S = 0.25


class Streamer:
    """A model's output pieces (heard on any thread) as `stream` events on the event loop:
    the first at once, then the text since the last at most every STREAM_EVERY_S; `flush`
    (on the loop, when the turn ends) sends what is left."""

    def __init__(self, emit: Emit, task: int, phase: str) -> None:
        self.emit, self.task, self.phase = emit, task, phase
        self.loop = asyncio.get_running_loop()
        self._buffer: list[str] = []
        self._lock = threading.Lock()
        self._last = 0.0

    def heard(self, piece: str) -> None:
        with self._lock:
            self._buffer.append(piece)
            now = time.monotonic()
            due = self._last == 0.0 or now - self._last >= STREAM_EVERY_S
            if due:
                self._last = now
        if due:
            with contextlib.suppress(RuntimeError):  # the loop closed: the run is over
                self.loop.call_soon_threadsafe(self.flush)

    def flush(self) -> None:
        with self._lock:
            text, self._buffer = "".join(self._buffer), []
        if text:
            self.emit("stream", {"task": self.task, "phase": self.phase, "text": text})


class Turns:
    """The turns of one run (see the module docstring)."""

    def __init__(self, run: RunContext, pipeline: Pipeline, model: ChatModel, emit: Emit,
                 cancel: asyncio.Event, policy: TurnPolicy) -> None:  # fmt: skip
        self.run, self.pipeline, self.model = run, pipeline, model
        self.emit, self.cancel, self.policy = emit, cancel, policy
        self._duplicates: set[str] = set()

    async def prompt(self) -> tuple[list[Message], dict[str, Command]]:
        """The messages of the next turn (system prompt + providers) and the commands."""
        if self.run.tools.cancel.is_set():
            raise asyncio.CancelledError("run cancelled")
        commands = await self.commands()
        constraints = await self.pipeline.run(DirectiveProvider.get_constraints)
        resources = await self.pipeline.run(DirectiveProvider.get_resources)
        practices = await self.pipeline.run(DirectiveProvider.get_best_practices)
        off = unavailable_lines([c for c in commands.values() if not available(c, self.run)])
        if not self.policy.lists_unavailable:
            off = []  # a small model does better with a short prompt than with this list
        system = render(
            "system",
            mode=self.run.settings.mode,
            constraints=bullets(constraints),
            resources=bullets(resources),
            best_practices=bullets(practices),
            unavailable=f"Tools not available in this run:\n{bullets(off)}" if off else "",
        )
        messages = await self.pipeline.run(MessageProvider.get_messages)
        return [{"role": "system", "content": system}, *messages], commands

    async def commands(self) -> dict[str, Command]:
        out: dict[str, Command] = {}
        for cmd in await self.pipeline.run(CommandProvider.get_commands):
            if not isinstance(cmd, Command):
                raise TypeError(f"get_commands yielded {cmd!r}, not a Command")
            if cmd.name in out:
                if cmd.name not in self._duplicates:
                    self._duplicates.add(cmd.name)
                    self.pipeline.trace.append(
                        f"⚠️ command {cmd.name} offered twice; the first kept"
                    )
                continue
            out[cmd.name] = cmd
        return out

    async def complete(self, messages: list[Message], tools: list[ToolSpec] | None) -> ModelTurn:
        schema = None if tools is not None else TASKS_SCHEMA
        state = self.run.state
        phase = "planning" if tools is None else "acting"
        self.emit("status", {"status": state.status, "phase": phase, "steps": state.steps})
        started = time.monotonic()
        streamer = Streamer(self.emit, self.run.task_index(), phase) if getattr(self.model, "streams", False) else None
        extra: dict[str, Any] = {"on_text": streamer.heard} if streamer is not None else {}
        if getattr(self.model, "varies", False) and tools is not None:
            extra["attempt"] = self.run.attempt
        try:
            turn: ModelTurn = await cancellable(
                self.model.complete(messages, tools=tools, json_schema=schema, **extra), self.cancel
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # ModelError, or a provider's own failure
            raise RunFailed(f"model error ({self.model.name}): {exc}") from exc
        finally:
            state.model_seconds += time.monotonic() - started
            if streamer is not None:
                streamer.flush()
        if turn.usage.prompt_tokens <= 0:  # the provider counted nothing: estimate (chars / 4)
            turn.usage = estimated_usage(messages, tools, turn)
            state.usage_estimated = True
        state.add_usage(turn.usage)
        state.context_used = turn.usage.prompt_tokens
        if turn.notice:  # e.g. the endpoint's tool calls moved to another protocol
            self.emit("status", {"status": state.status, "phase": phase, "notice": turn.notice})
        return turn
