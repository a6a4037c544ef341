"""Fixtures for the agent tests: scripted model transcripts driving the real loop with the
real tools in a temporary workspace.

A script is a list of replay lines (`plan(...)`, `act(...)`, `say(...)`, `finish(...)`),
dumped to a JSONL file and played by `SpyModel`, a ReplayModel that also keeps what the
run sent on each turn (kind, messages, offered tool names).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, EditorContext, RunEvent, RunSettings
from agentls.agent.run import RunState
from agentls.llm.base import Message, ModelTurn, ToolSpec
from agentls.llm.replay import ReplayModel
from agentls.tools.proposals import ProposalStore
from agentls.workspace import Workspace

USAGE = {"prompt_tokens": 10, "completion_tokens": 5}
_ids = itertools.count(1)


def plan(
    *tasks: str, content: str | None = None, usage: dict[str, Any] | None = None
) -> dict[str, Any]:
    text = content if content is not None else json.dumps(list(tasks))
    return {"request": {"kind": "plan"}, "response": {"content": text, "usage": usage or USAGE}}


def act(
    name: str,
    args: dict[str, Any] | None = None,
    *,
    raw: str | None = None,
    content: str | None = None,
    call_id: str | None = None,
    usage: dict[str, Any] | None = None,
    delay_s: float | None = None,
) -> dict[str, Any]:
    """An acting reply calling `name` (arguments as a dict, or `raw` JSON text)."""
    arguments = raw if raw is not None else json.dumps(args or {})
    call = {"id": call_id or f"call-{next(_ids)}", "name": name, "arguments": arguments}
    line: dict[str, Any] = {
        "request": {"kind": "act"},
        "response": {"content": content, "tool_calls": [call], "usage": usage or USAGE},
    }
    if delay_s is not None:
        line["delay_s"] = delay_s
    return line


def say(content: str) -> dict[str, Any]:
    """An acting reply with text and no tool call (a bad reply)."""
    return {"request": {"kind": "act"}, "response": {"content": content, "usage": USAGE}}


def finish(summary: str = "done") -> dict[str, Any]:
    return act("finish", {"summary": summary})


@dataclass
class Turn:
    kind: str
    messages: list[Message]
    tools: list[str]
    specs: list[ToolSpec] = field(default_factory=list)  # the offered tools, whole

    def text(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages)


class SpyModel(ReplayModel):
    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.turns: list[Turn] = []

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
        on_text: Any = None,
    ) -> ModelTurn:
        names = [t["function"]["name"] for t in tools or []]
        self.turns.append(
            Turn(
                "plan" if tools is None else "act",
                json.loads(json.dumps(messages)),
                names,
                json.loads(json.dumps(tools or [])),
            )
        )
        return await super().complete(messages, tools=tools, json_schema=json_schema, on_text=on_text)


@dataclass
class Outcome:
    state: RunState
    agent: Agent
    model: SpyModel
    events: list[RunEvent] = field(default_factory=list)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events if e.kind == kind]

    def acting(self) -> list[Turn]:
        return [t for t in self.model.turns if t.kind == "act"]


@pytest.fixture
def ws_root(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    return 1\n")
    (root / "README.md").write_text("# demo\nhello world\n")
    return root


def write_script(path: Path, script: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in script), encoding="utf-8")
    return path


RunAgent = Callable[..., Awaitable[Outcome]]


@pytest.fixture
def make_agent(
    ws_root: Path, tmp_path: Path
) -> Callable[..., tuple[Agent, SpyModel, list[RunEvent]]]:
    def make(script: list[dict[str, Any]], settings: RunSettings | None = None, **kwargs: Any):
        model = SpyModel(write_script(tmp_path / "script.jsonl", script))
        model.small = kwargs.pop("small", False)  # as the embedded model says of itself
        model.guided = kwargs.pop("guided", False)  # as the embedded 0.5B says of itself
        events: list[RunEvent] = []
        workspace = kwargs.pop("workspace", None) or Workspace(ws_root)
        agent = Agent(
            workspace=workspace,
            model=model,
            settings=settings or RunSettings(approval="never"),
            proposals=kwargs.pop("proposals", None) or ProposalStore(workspace),
            on_event=events.append,
            **kwargs,
        )
        return agent, model, events

    return make


@pytest.fixture
def run_agent(make_agent: Callable[..., tuple[Agent, SpyModel, list[RunEvent]]]) -> RunAgent:
    async def run(
        script: list[dict[str, Any]],
        goal: str = "Do the thing",
        settings: RunSettings | None = None,
        context: EditorContext | None = None,
        **kwargs: Any,
    ) -> Outcome:
        agent, model, events = make_agent(script, settings, **kwargs)
        state = await agent.run(goal, context)
        return Outcome(state, agent, model, events)

    return run
