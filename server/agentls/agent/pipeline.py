"""Collecting and ordering components, and running one protocol over them (`run_pipeline`).

Ordering: a component runs after every component that is an instance of a class in its
`run_after` list; otherwise the given order is kept (a stable depth-first topological
sort). A cycle is a `ComponentOrderError` naming the components in it.

`run_pipeline(components, Protocol.method, *args, retry_limit=3)` calls the method on
every enabled component implementing the protocol, in order, and returns the items they
returned (iterables are flattened, None is skipped). The semantics are those Forge
documents, not those its code has (its per-component handler also catches the
pipeline-level error, so it never restarts and never re-raises):

- each component gets a deep copy of the current arguments; when it succeeds, its copy
  (with any changes it made) becomes the arguments of the next component;
- `ComponentEndpointError` → the same component is called again with a fresh copy; a
  component is called at most `retry_limit` times, then the error is re-raised;
- `EndpointPipelineError` → the whole pipeline restarts from a deep copy of the original
  arguments with the results gathered so far dropped; it runs at most `retry_limit`
  times, then the error is re-raised;
- any other exception is re-raised at once.

The trace (a list of lines) records the protocol (⬇️), each component that succeeded (✅),
each failure (❌ component: error: reason), skipped disabled components (⏸️) and restarts
(🔁). Must not know: what the protocols mean to the loop, tools, models, LSP.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

from agentls.agent.components import (
    AgentComponent,
    ComponentEndpointError,
    ComponentOrderError,
    EndpointPipelineError,
)
from agentls.agent.protocols import protocol_of

DEFAULT_RETRY_LIMIT = 3
#: Lines kept by a `Pipeline`'s trace (the oldest are dropped).
TRACE_LIMIT = 2000


def collect_components(owner: object) -> list[AgentComponent]:
    """The `AgentComponent` attributes of `owner`, in the order they were assigned."""
    found: list[AgentComponent] = []
    for value in vars(owner).values():
        if isinstance(value, AgentComponent) and all(value is not c for c in found):
            found.append(value)
    return found


def sort_components(components: Sequence[AgentComponent]) -> list[AgentComponent]:
    """Order `components` so each runs after those its `run_after` names (stable)."""
    ordered: list[AgentComponent] = []
    done: set[int] = set()
    stack: list[AgentComponent] = []

    def visit(component: AgentComponent) -> None:
        if id(component) in done:
            return
        if any(component is c for c in stack):
            start = next(i for i, c in enumerate(stack) if c is component)
            names = [c.name for c in stack[start:]] + [component.name]
            raise ComponentOrderError(
                "the components' run_after declarations form a cycle: " + " → ".join(names),
                component,
            )
        stack.append(component)
        for before in components:
            if before is not component and isinstance(before, tuple(component.after)):
                visit(before)
        stack.pop()
        done.add(id(component))
        ordered.append(component)

    for component in components:
        visit(component)
    return ordered


def _copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except Exception:  # something uncopyable (a lock, a connection): share it
        try:
            return copy.copy(value)
        except Exception:
            return value


async def _items(value: Any) -> list[Any]:
    """A protocol method's return value as a list of items."""
    if inspect.isawaitable(value):
        value = await value
    if value is None:
        return []
    if isinstance(value, AsyncIterator):
        return [item async for item in value]
    if isinstance(value, str | bytes | dict):
        return [value]
    if isinstance(value, Iterable):
        return list(value)
    return [value]


async def _run_component(
    component: AgentComponent,
    method_name: str,
    args: tuple[Any, ...],
    results: list[Any],
    retry_limit: int,
    trace: list[str],
) -> tuple[Any, ...]:
    """Call one component (retrying on ComponentEndpointError); return its arguments."""
    attempt = 0
    while True:
        attempt += 1
        call_args = _copy(args)
        try:
            items = await _items(getattr(component, method_name)(*call_args))
        except ComponentEndpointError as exc:
            trace.append(f"❌ {component.name}: ComponentEndpointError: {exc.message}")
            if attempt >= retry_limit:
                trace.append(f"⛔ {component.name}: gave up after {attempt} attempts")
                raise
            continue
        except EndpointPipelineError as exc:
            if exc.component is None:
                exc.component = component
            raise
        except Exception as exc:
            trace.append(f"❌ {component.name}: {type(exc).__name__}: {exc}")
            raise
        results.extend(items)
        trace.append(f"✅ {component.name}")
        return tuple(call_args)


async def run_pipeline(
    components: Sequence[AgentComponent],
    method: Callable[..., Any],
    *args: Any,
    retry_limit: int = DEFAULT_RETRY_LIMIT,
    trace: list[str] | None = None,
) -> list[Any]:
    """Run the protocol `method` (e.g. `MessageProvider.get_messages`) over `components`."""
    if retry_limit < 1:
        raise ValueError("retry_limit must be at least 1")
    protocol = protocol_of(method)
    name = method.__name__
    log = trace if trace is not None else []
    original = _copy(args)
    log.append(f"⬇️ {protocol.__name__}.{name}")
    attempt = 0
    while True:
        attempt += 1
        results: list[Any] = []
        current: tuple[Any, ...] = _copy(original)
        try:
            for component in components:
                if not isinstance(component, protocol):
                    continue
                if not component.enabled:
                    why = component.disabled_reason or "disabled"
                    log.append(f"⏸️ {component.name} (disabled: {why})")
                    continue
                current = await _run_component(component, name, current, results, retry_limit, log)
            return results
        except EndpointPipelineError as exc:
            who = exc.component.name if exc.component is not None else "?"
            log.append(f"❌ {who}: EndpointPipelineError: {exc.message}")
            if attempt >= retry_limit:
                log.append(f"⛔ {protocol.__name__}.{name}: gave up after {attempt} runs")
                raise
            log.append(f"🔁 {protocol.__name__}.{name}: restart {attempt + 1}/{retry_limit}")


class Pipeline:
    """The sorted components of one agent and the trace of every pipeline run on them."""

    def __init__(
        self, components: Sequence[AgentComponent], retry_limit: int = DEFAULT_RETRY_LIMIT
    ) -> None:
        self.components = sort_components(components)
        self.retry_limit = retry_limit
        self.trace: list[str] = []

    async def run(self, method: Callable[..., Any], *args: Any) -> list[Any]:
        try:
            return await run_pipeline(
                self.components, method, *args, retry_limit=self.retry_limit, trace=self.trace
            )
        finally:
            if len(self.trace) > TRACE_LIMIT:
                del self.trace[: len(self.trace) - TRACE_LIMIT]

    def find(self, kind: type[AgentComponent]) -> list[AgentComponent]:
        return [c for c in self.components if isinstance(c, kind)]
