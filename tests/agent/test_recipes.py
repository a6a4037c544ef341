"""Recipes (builtin/recipes.py): the acting prompt names the tool for the kind of job the
goal asks for, only for tools the run may use; the system prompt is the same for every
goal of a mode (so a model's evaluated prefix is reused across runs)."""

from __future__ import annotations

import pytest

from agentls.agent.agent import RunSettings

from .conftest import RunAgent, finish, plan


@pytest.mark.parametrize(
    ("goal", "mode", "tools"),
    [
        ("src/app.py needs a helper twice(x) returning x * 2", "dev", ["insert_symbol"]),
        ("Document main in src/app.py with a docstring", "dev", ["add_docstring"]),
        ("Give src/app.py a module docstring.", "dev", ["add_docstring", "symbol is `module`"]),
        ("main ought to be called entry everywhere", "dev", ["rename_symbol"]),
        ("Annotate main in src/app.py: it returns an int.", "dev", ["its def line"]),
        ("The tests are failing: repair main so they pass", "full", ["run by themselves"]),
        ("The tests are failing: repair main so they pass", "dev", []),  # no shell in dev
        ("Rename main to entry", "read-only", ["answer itself"]),  # may not write: an answer
        ("what does main return?", "read-only", ["answer itself"]),
        ("Make main return 3", "dev", []),
        ("Cover main with pytest tests in a new file test_main.py.", "dev", ["functions named test_"]),
        ("Summarise what src/app.py is for", "read-only", ["answer itself"]),
    ],
)
async def test_the_acting_prompt_names_the_tool_for_the_goals_kind_of_job(
    run_agent: RunAgent, goal: str, mode: str, tools: list[str]
) -> None:
    out = await run_agent([finish("ok"), plan()], goal=goal, settings=RunSettings(mode=mode, approval="never"), small=True)
    practices = out.acting()[0].messages[-1]["content"]  # the acting prompt
    for name in ("insert_symbol", "add_docstring", "rename_symbol", "replace_symbol", "run by themselves", "answer itself",
                 "functions named test_", "its def line", "symbol is `module`"):  # fmt: skip
        assert (name in practices) == (name in tools), (name, practices)


async def test_the_system_prompt_is_the_same_for_every_goal_of_a_mode(run_agent: RunAgent) -> None:
    first = await run_agent([finish("ok")], goal="Rename main to entry", settings=RunSettings(mode="dev"), small=True)
    second = await run_agent([finish("ok")], goal="what does main return?", settings=RunSettings(mode="dev"), small=True)
    system = [out.acting()[0].messages[0]["content"] for out in (first, second)]
    assert system[0] == system[1] and "Rename main" not in system[0]
