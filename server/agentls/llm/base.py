"""The model interface every provider implements, in OpenAI chat-completions terms.

Messages are plain dicts in the OpenAI chat format (`role`: system | user | assistant |
tool; `tool_calls` on assistant messages; `tool_call_id` on tool messages). Tools are
offered in the OpenAI `tools` format. A planning turn offers no tools and passes
`json_schema` (a JSON array of task strings) so that constrained providers can hold the
output to it; an acting turn offers tools and expects exactly one tool call (DESIGN §6).
Must not know: the agent loop, tools' internals, LSP.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Message = dict[str, Any]
ToolSpec = dict[str, Any]  # {"type": "function", "function": {"name", "description", "parameters"}}

#: A string schema's text it must start with, for models whose output a grammar holds
#: (the local model): the arguments a tiny model's guided turn prefills (agent/guide.py).
#: Not JSON Schema; other providers never see it.
PREFIX = "x-prefix"
#: With PREFIX: the string is the prefix, one line, then for each text listed here that
#: text and one more line, and a final newline — a prefilled test of one assert per line
#: the guide starts instead of a page of them.
THEN = "x-then"

#: A string argument that is code (a file's content, a whole definition): a provider may
#: let its model write it outside the JSON call, in a fenced block (llm/local/fenced.py),
#: and puts it back into the arguments. Tools mark such fields with this key
#: (tools/base.py CODE_ARGUMENT, the same text). Not JSON Schema: `plain_tools` strips it.
CODE = "x-code"

#: The planning turn's output contract: a JSON array of task strings (`[]` = nothing to do).
TASKS_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 300}, "maxItems": 10}


class ModelError(Exception):
    """The provider could not produce a turn (unreachable endpoint, bad key, exhausted
    recording, model file missing). The run fails with this message; it is not a bad reply."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # the raw JSON text the model produced (parsed and checked by the agent)


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # when the provider reports it


@dataclass(slots=True)
class ModelTurn:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    raw: dict[str, Any] = field(default_factory=dict)  # the provider's response, for recording
    #: Something the user should hear once about how the provider talks to its model
    #: (e.g. an endpoint's tool calls moved to another protocol); the run reports it.
    notice: str | None = None

    def as_message(self) -> Message:
        """The assistant message to append to the history."""
        msg: Message = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            msg["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return msg


@runtime_checkable
class ChatModel(Protocol):
    """One model. `complete` is cancellable: cancelling the awaiting task stops it. A model
    whose `streams` attribute is true also takes `on_text=`, a callable that hears each
    piece of output as it is generated (maybe on another thread); one whose `varies`
    attribute is true also takes `attempt=`, how many tries at this step failed a check
    before (it may sample more freely for a later try)."""

    name: str
    context_tokens: int  # the window the history is trimmed to

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> ModelTurn: ...

    async def aclose(self) -> None: ...


async def cancellable(coro: Any, cancel: asyncio.Event | None, *, grace_s: float = 0.0) -> Any:
    """Await `coro` unless `cancel` is set first: then the work gets `grace_s` seconds to
    end by itself (a tool told to stop), is cancelled if it has not, and
    asyncio.CancelledError is raised (what the work raised meanwhile is dropped)."""
    if cancel is None:
        return await coro
    work = asyncio.ensure_future(coro)
    waiter = asyncio.ensure_future(cancel.wait())
    done, _ = await asyncio.wait({work, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if work in done:
        waiter.cancel()
        return work.result()
    if grace_s > 0:
        await asyncio.wait({work}, timeout=grace_s)
    if work.done() and not work.cancelled():
        work.exception()  # retrieved: the run is over, the outcome no longer matters
    else:
        work.cancel()
    raise asyncio.CancelledError("run cancelled")


def plain_tools(tools: list[ToolSpec]) -> list[ToolSpec]:
    """The tools with our own schema keywords (`x-…`) taken out, for endpoints that see
    the JSON Schema itself."""

    def clean(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: clean(v) for k, v in node.items() if not (isinstance(k, str) and k.startswith("x-"))}
        if isinstance(node, list):
            return [clean(v) for v in node]
        return node

    return [clean(t) for t in tools]
