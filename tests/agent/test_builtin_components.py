"""The built-in components in the real loop (history, memory, editor context) and custom
components taking part in it (protocol hooks, ordering, enabling, retries)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentls.agent.actions import ActionFailure, ActionResult, ParsedCall
from agentls.agent.agent import EditorContext, RunSettings
from agentls.agent.builtin.history import HistoryComponent
from agentls.agent.command import Command, command
from agentls.agent.components import ComponentEndpointError
from agentls.agent.protocols import (
    AfterExecute,
    AfterParse,
    CommandProvider,
    ExecutionFailure,
    MessageProvider,
)
from agentls.tools.knowledge.memory import MemoryStore

from .conftest import RunAgent, act, finish, plan


class Recorder(AfterParse, AfterExecute, ExecutionFailure, MessageProvider):
    def __init__(self, log: list[str], flaky: int = 0) -> None:
        super().__init__()
        self.log = log
        self.flaky = flaky

    def get_messages(self) -> Iterator[dict[str, Any]]:
        if self.flaky:
            self.flaky -= 1
            raise ComponentEndpointError("not yet", self)
        yield {"role": "user", "content": f"note from {self.name}"}

    def after_parse(self, result: ParsedCall) -> None:
        self.log.append(f"{self.name}.parse:{result.name}")

    async def after_execute(self, result: ActionResult) -> None:
        self.log.append(f"{self.name}.ok:{result.call.name}")

    def execution_failure(self, error: ActionFailure) -> None:
        self.log.append(f"{self.name}.fail:{error.result.call.name}:{error.result.error['type']}")  # type: ignore[index]


class Later(Recorder):
    pass


class Greeter(CommandProvider):
    def get_commands(self) -> Iterator[Command]:
        yield self.greet

    @command
    def greet(self, name: str) -> str:
        """Greet someone by name."""
        return f"hello {name}"


async def test_custom_components_take_part_in_order(run_agent: RunAgent) -> None:
    log: list[str] = []
    later, first = Later(log), Recorder(log, flaky=1)
    later.run_after(Recorder)
    script = [
        plan("t"),
        act("read_file", {"path": "nope.py"}),
        act("read_file", {"path": "README.md"}),
        finish(),
        plan(),
    ]
    out = await run_agent(script, components=[later, first])
    assert out.state.status == "completed"
    assert log[:6] == [
        "Recorder.parse:read_file",
        "Later.parse:read_file",
        "Recorder.fail:read_file:runtime",  # ExecutionFailure: the tool returned an error
        "Later.fail:read_file:runtime",
        "Recorder.parse:read_file",
        "Later.parse:read_file",
    ]
    assert log[6:8] == ["Recorder.ok:read_file", "Later.ok:read_file"]
    text = out.acting()[0].text()
    assert text.index("note from Recorder") < text.index("note from Later")
    assert "❌ Recorder: ComponentEndpointError: not yet" in out.agent.trace


async def test_a_disabled_component_is_rechecked_each_turn(run_agent: RunAgent) -> None:
    log: list[str] = []
    rec = Recorder(log)
    switch = {"on": False}
    rec.enabled = lambda: switch["on"]
    greet = act("greet", {"name": "Ada"})
    out = await run_agent([plan("t"), greet, greet, finish(), plan()], components=[rec, Greeter()])
    assert log == []
    assert "note from Recorder" not in out.acting()[1].text()
    assert '"output": "hello Ada"' in out.acting()[1].messages[-1]["content"]
    assert "greet" in out.acting()[0].tools


async def test_a_command_that_raises_is_an_execution_failure(run_agent: RunAgent) -> None:
    class Broken(CommandProvider):
        def get_commands(self) -> Iterator[Command]:
            yield self.explode

        @command
        def explode(self) -> str:
            """Always fails."""
            raise ZeroDivisionError("boom")

    log: list[str] = []
    out = await run_agent(
        [plan("t"), act("explode"), finish(), plan()], components=[Broken(), Recorder(log)]
    )
    assert out.state.status == "completed"
    assert log == [
        "Recorder.parse:explode",
        "Recorder.fail:explode:runtime",
        "Recorder.parse:finish",
        "Recorder.ok:finish",
    ]
    tool_msg = [m for m in out.acting()[1].messages if m["role"] == "tool"][-1]
    assert "explode failed: ZeroDivisionError: boom" in tool_msg["content"]


async def test_history_keeps_recent_steps_and_summarizes_older_ones(run_agent: RunAgent) -> None:
    reads = [act("read_file", {"path": p}) for p in ["README.md", "src/app.py"] * 3]
    settings = RunSettings(approval="never", watchdog_repeats=5)
    out = await run_agent([plan("t"), *reads, finish(), plan()], settings=settings)
    agent = out.agent
    assert isinstance(agent.history, HistoryComponent)
    last = out.acting()[-1].messages
    # 6 steps; keep_last 8 → all verbatim in the last turn
    assert sum(1 for m in last if m["role"] == "tool") == 6
    agent.history.keep_last = 2
    agent.context.turn, agent.context.task = "act", agent.state.tasks[0]
    shown = list(agent.history.get_messages())
    assert shown[0]["content"].startswith("Current task: t")
    assert shown[1]["content"].startswith("Summary of 5 earlier step(s) of this task:")
    assert "- read_file" in shown[1]["content"] and "→ ok:" in shown[1]["content"]
    assert [m["role"] for m in shown[2:]] == ["assistant", "tool", "assistant", "tool"]


async def test_history_stays_within_its_token_budget(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "big.txt").write_text("x" * 40_000)
    reads = [
        act("read_file", {"path": p}) for p in ["big.txt", "README.md", "big.txt", "README.md"]
    ]
    settings = RunSettings(approval="never", history_tokens=3000, watchdog_repeats=5)
    out = await run_agent([plan("t"), *reads, finish(), plan()], settings=settings)
    for turn in out.acting():
        history_chars = sum(len(m.get("content") or "") for m in turn.messages[1:])
        assert history_chars < 3000 * 4 + 2000
    assert "characters cut" in out.acting()[1].messages[-1]["content"]


async def test_memory_is_saved_and_found_by_the_next_run(
    run_agent: RunAgent, ws_root: Path
) -> None:
    first = await run_agent(
        [plan("Find the entry point"), finish("main() in src/app.py"), plan()], goal="entry point"
    )
    assert first.state.status == "completed"
    hits = MemoryStore.for_workspace(ws_root).search("entry point")
    assert (
        hits
        and "Result: main() in src/app.py" in hits[0]["text"]
        and hits[0]["tags"] == ["task-result"]
    )
    second = await run_agent([plan()], goal="where is the entry point")
    system = [m for m in second.model.turns[0].messages if m["role"] == "system"]
    assert any("main() in src/app.py" in m["content"] for m in system[1:])


async def test_memory_is_not_written_in_read_only_mode(run_agent: RunAgent, ws_root: Path) -> None:
    out = await run_agent(
        [plan("t"), finish("x"), plan()], settings=RunSettings(mode="read-only", approval="never")
    )
    assert out.state.status == "completed"
    assert not (ws_root / ".agentls" / "memory.db").exists()


async def test_editor_context_is_offered(run_agent: RunAgent) -> None:
    ctx = EditorContext("src/app.py", ((0, 4), (1, 12)), "main():\n    return 1")
    out = await run_agent([plan("t"), finish(), plan()], context=ctx)
    for turn in out.model.turns:
        text = turn.text()
        assert "`src/app.py`, with lines 1–2 selected (0-based range 0:4–1:12)" in text
        assert "main():\n    return 1" in text
    plain = await run_agent([plan()])
    assert "started this run from" not in plain.model.turns[0].text()


async def test_editor_context_names_the_problems_reported_there(run_agent: RunAgent) -> None:
    problem = "line 3 (0-based 2:4–2:9), agentls: syntax error near 'x +'"
    ctx = EditorContext("src/app.py", ((2, 0), (3, 0)), "    x +\n", (problem,))
    out = await run_agent([plan("t"), finish(), plan()], context=ctx)
    assert f"The editor reports these problems there:\n- {problem}" in out.model.turns[0].text()
    plain = await run_agent([plan()], context=EditorContext("src/app.py"))
    assert "problems" not in plain.model.turns[0].text()
