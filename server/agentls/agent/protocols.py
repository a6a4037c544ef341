"""The six protocols (Forge) a component implements to take part in a run.

Order-independent (they only contribute data): `DirectiveProvider` (constraints,
resources, best practices for the system prompt) and `CommandProvider` (the commands the
model may call). Order-dependent (they run in the components' topological order):
`MessageProvider` (messages added to each model turn), `AfterParse` (a parsed tool call,
before it runs; may reject it by raising `CallRejected`, or stop the run), and after a
call ran exactly one of `ExecutionFailure` (the call failed: the tool returned a
structured error, or the command raised) or `AfterExecute` (it succeeded).

Every method may be sync or async and may return an iterable (flattened by the pipeline),
a single value or None. Must not know: the loop's internals, tools' internals, LSP.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Awaitable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from agentls.agent.components import AgentComponent

if TYPE_CHECKING:
    from agentls.agent.actions import ActionFailure, ActionResult, ParsedCall
    from agentls.agent.command import Command
    from agentls.llm.base import Message

T = TypeVar("T")
#: What a protocol method may return: items, an async stream of items, or an awaitable.
Provided = Iterable[T] | AsyncIterator[T] | Awaitable[Iterable[T]]


class DirectiveProvider(AgentComponent):
    """Informs the model: constraints, resources and best practices (none by default)."""

    def get_constraints(self) -> Provided[str]:
        return iter(())

    def get_resources(self) -> Provided[str]:
        return iter(())

    def get_best_practices(self) -> Provided[str]:
        return iter(())


class CommandProvider(AgentComponent):
    """Offers commands (`@command` methods, or tools adapted as commands)."""

    @abstractmethod
    def get_commands(self) -> Provided[Command]: ...


class MessageProvider(AgentComponent):
    """Adds messages (OpenAI chat dicts) to each model turn, in component order."""

    @abstractmethod
    def get_messages(self) -> Provided[Message]: ...


class AfterParse(AgentComponent):
    """Sees each well-formed tool call before it runs."""

    @abstractmethod
    def after_parse(self, result: ParsedCall) -> None | Awaitable[None]: ...


class ExecutionFailure(AgentComponent):
    """Hears of each call that ran and failed (a structured tool error or an exception)."""

    @abstractmethod
    def execution_failure(self, error: ActionFailure) -> None | Awaitable[None]: ...


class AfterExecute(AgentComponent):
    """Hears of each call that ran and succeeded."""

    @abstractmethod
    def after_execute(self, result: ActionResult) -> None | Awaitable[None]: ...


PROTOCOLS: tuple[type[AgentComponent], ...] = (
    DirectiveProvider,
    CommandProvider,
    MessageProvider,
    AfterParse,
    ExecutionFailure,
    AfterExecute,
)


def protocol_of(method: Any) -> type[AgentComponent]:
    """The protocol class that declares `method` (e.g. `MessageProvider.get_messages`)."""
    owner = getattr(method, "__qualname__", "").split(".")[0]
    for protocol in PROTOCOLS:
        if protocol.__name__ == owner and getattr(protocol, method.__name__, None) is method:
            return protocol
    raise TypeError(f"{method!r} is not a method of one of the protocols")


__all__ = [
    "PROTOCOLS",
    "AfterExecute",
    "AfterParse",
    "CommandProvider",
    "DirectiveProvider",
    "ExecutionFailure",
    "MessageProvider",
    "protocol_of",
]
