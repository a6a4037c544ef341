"""Components, ordering (run_after, cycles), enabled/disabled, and run_pipeline's retry
semantics and trace (pipeline.py, components.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agentls.agent.components import (
    AgentComponent,
    ComponentEndpointError,
    ComponentOrderError,
    EndpointPipelineError,
)
from agentls.agent.pipeline import Pipeline, collect_components, run_pipeline, sort_components
from agentls.agent.protocols import AfterParse, DirectiveProvider, MessageProvider


class A(DirectiveProvider):
    def get_constraints(self) -> Iterator[str]:
        yield "a"


class B(DirectiveProvider):
    def get_constraints(self) -> Iterator[str]:
        yield "b"


class C(DirectiveProvider):
    async def get_constraints(self) -> list[str]:  # async, returning a list
        return ["c1", "c2"]


class D(MessageProvider):
    def get_messages(self) -> Iterator[dict[str, Any]]:
        yield {"role": "user", "content": "d"}


def names(components: list[AgentComponent]) -> list[str]:
    return [c.name for c in components]


# --- ordering -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ({}, ["A", "B", "C"]),  # no constraints: the given order
        ({"A": ["C"]}, ["C", "A", "B"]),
        ({"A": ["B"], "B": ["C"]}, ["C", "B", "A"]),
        ({"C": ["A"]}, ["A", "B", "C"]),  # already satisfied: unchanged
        ({"B": ["A", "C"]}, ["A", "C", "B"]),
    ],
)
def test_sort_by_run_after(after: dict[str, list[str]], expected: list[str]) -> None:
    classes = {"A": A, "B": B, "C": C}
    comps = {"A": A(), "B": B(), "C": C()}
    for name, deps in after.items():
        comps[name].run_after(*(classes[d] for d in deps))
    assert names(sort_components([comps["A"], comps["B"], comps["C"]])) == expected


def test_run_after_is_stored_per_instance() -> None:
    first, second = A(), A()
    first.run_after(B)
    assert first.after == [B] and second.after == []
    assert A().run_after(B) is not None  # returns self for chaining
    with pytest.raises(TypeError):
        A().run_after(int)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("after", "cycle"),
    [
        ({"A": ["B"], "B": ["A"]}, ["A", "B"]),
        ({"A": ["B"], "B": ["C"], "C": ["A"]}, ["A", "B", "C"]),
    ],
)
def test_cycle_is_an_error_naming_the_components(
    after: dict[str, list[str]], cycle: list[str]
) -> None:
    classes = {"A": A, "B": B, "C": C}
    comps = {"A": A(), "B": B(), "C": C()}
    for name, deps in after.items():
        comps[name].run_after(*(classes[d] for d in deps))
    with pytest.raises(ComponentOrderError) as info:
        sort_components(list(comps.values()))
    message = str(info.value)
    assert "cycle" in message
    for name in cycle:
        assert name in message


def test_collect_components_finds_attributes_in_order() -> None:
    class Owner:
        def __init__(self) -> None:
            self.x = 1
            self.b = B()
            self.a = A()
            self.again = self.a

    owner = Owner()
    assert names(collect_components(owner)) == ["B", "A"]


# --- enabled ----------------------------------------------------------------------------
async def test_protocol_order_and_disabled_components_are_skipped() -> None:
    a, b, c, d = A(), B(), C(), D()
    b.disable("not today")
    trace: list[str] = []
    out = await run_pipeline([a, b, c, d], DirectiveProvider.get_constraints, trace=trace)
    assert out == ["a", "c1", "c2"]
    assert trace == [
        "⬇️ DirectiveProvider.get_constraints",
        "✅ A",
        "⏸️ B (disabled: not today)",
        "✅ C",
    ]


async def test_enabled_callable_is_rechecked_every_run() -> None:
    switch = {"on": False}
    a = A()
    a.enabled = lambda: switch["on"]
    assert await run_pipeline([a], DirectiveProvider.get_constraints) == []
    switch["on"] = True
    assert a.enabled is True
    assert await run_pipeline([a], DirectiveProvider.get_constraints) == ["a"]


# --- retries ----------------------------------------------------------------------------
class Flaky(AfterParse):
    """Fails `failures` times with `error`, recording the argument it saw each time."""

    def __init__(self, failures: int, error: type[Exception] = ComponentEndpointError) -> None:
        super().__init__()
        self.failures = failures
        self.error = error
        self.seen: list[Any] = []

    def after_parse(self, result: Any) -> list[str]:  # type: ignore[override]
        self.seen.append(list(result))
        result.append(self.name)  # a change the next component sees
        if self.failures > 0:
            self.failures -= 1
            raise self.error("flaky", self)  # type: ignore[call-arg]
        return [self.name]


class Second(Flaky):
    pass


async def test_component_error_retries_that_component_only() -> None:
    first, second = Flaky(0), Second(2)
    trace: list[str] = []
    out = await run_pipeline([first, second], AfterParse.after_parse, [], trace=trace)
    assert out == ["Flaky", "Second"]
    assert len(first.seen) == 1 and len(second.seen) == 3
    assert second.seen == [["Flaky"]] * 3  # each retry gets a fresh copy
    assert trace == [
        "⬇️ AfterParse.after_parse",
        "✅ Flaky",
        "❌ Second: ComponentEndpointError: flaky",
        "❌ Second: ComponentEndpointError: flaky",
        "✅ Second",
    ]


async def test_component_error_is_reraised_after_the_limit() -> None:
    flaky = Flaky(5)
    trace: list[str] = []
    with pytest.raises(ComponentEndpointError):
        await run_pipeline([flaky], AfterParse.after_parse, [], retry_limit=3, trace=trace)
    assert len(flaky.seen) == 3
    assert trace[-1] == "⛔ Flaky: gave up after 3 attempts"


async def test_pipeline_error_restarts_from_the_original_arguments() -> None:
    first, second = Flaky(0), Second(1, EndpointPipelineError)
    original: list[str] = []
    trace: list[str] = []
    out = await run_pipeline([first, second], AfterParse.after_parse, original, trace=trace)
    assert out == ["Flaky", "Second"]  # the first run's results were dropped
    assert first.seen == [[], []]  # restarted with a copy of the original, not the changed args
    assert original == []
    assert "❌ Second: EndpointPipelineError: flaky" in trace
    assert "🔁 AfterParse.after_parse: restart 2/3" in trace
    assert trace.count("⬇️ AfterParse.after_parse") == 1


async def test_pipeline_error_is_reraised_after_the_limit() -> None:
    flaky = Flaky(10, EndpointPipelineError)
    trace: list[str] = []
    with pytest.raises(EndpointPipelineError):
        await run_pipeline([flaky], AfterParse.after_parse, [], retry_limit=2, trace=trace)
    assert len(flaky.seen) == 2
    assert trace[-1] == "⛔ AfterParse.after_parse: gave up after 2 runs"


async def test_other_errors_are_raised_at_once() -> None:
    flaky, second = Flaky(1, KeyError), Second(0)
    trace: list[str] = []
    with pytest.raises(KeyError):
        await run_pipeline([flaky, second], AfterParse.after_parse, [], trace=trace)
    assert len(flaky.seen) == 1 and second.seen == []
    assert trace[-1].startswith("❌ Flaky: KeyError")


def test_pipeline_object_sorts_and_rejects_cycles() -> None:
    a, b = A(), B()
    a.run_after(B)
    assert names(Pipeline([a, b]).components) == ["B", "A"]
    b.run_after(A)
    with pytest.raises(ComponentOrderError):
        Pipeline([a, b])
