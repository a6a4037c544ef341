"""Recipes (builtin/recipes.py): the system prompt names the tool for the kind of job the
goal asks for, only for tools the run may use."""

from __future__ import annotations

import pytest

from agentls.agent.agent import RunSettings

from .conftest import RunAgent, finish, plan


@pytest.mark.parametrize(
    ("goal", "mode", "tools"),
    [
        ("Add a function subtract(a, b) to calc.py that returns a minus b.", "dev", ["insert_symbol"]),
        ("Add a docstring to the add function in calc.py.", "dev", ["add_docstring"]),
        ("Add a module docstring at the top of textutils.py.", "dev", ["add_docstring", "symbol is `module`"]),
        ("Rename the class Usr to User in models.py and update every place that uses it.", "dev", ["rename_symbol"]),
        ("Add type hints to every parameter and the return of area in shapes.py.", "dev", ["its def line"]),
        ("The tests in test_discount.py fail. Fix apply_discount so they pass.", "full", ["run_test_suite"]),
        ("The tests in test_discount.py fail. Fix apply_discount so they pass.", "dev", []),  # no shell in dev
        ("Rename Usr to User", "read-only", []),  # may not write
        ("What is the default timeout in config.py?", "read-only", ["answer itself"]),
        ("Change the greeting in hello.py to 'Hi'", "dev", []),
        ("Write a pytest test for the add function of calc.py in a new file test_calc.py.", "dev", ["functions named test_"]),
        ("Read src/shop/pricing.py and finish with a one-line summary of what it does", "read-only", ["answer itself"]),
    ],
)
async def test_the_system_prompt_names_the_tool_for_the_goals_kind_of_job(
    run_agent: RunAgent, goal: str, mode: str, tools: list[str]
) -> None:
    out = await run_agent([finish("ok"), plan()], goal=goal, settings=RunSettings(mode=mode, approval="never"), small=True)
    system = out.acting()[0].messages[0]["content"]
    practices = system.split("Best practices:")[1]
    for name in ("insert_symbol", "add_docstring", "rename_symbol", "replace_symbol", "run_test_suite", "answer itself",
                 "functions named test_", "its def line", "symbol is `module`"):  # fmt: skip
        assert (name in practices) == (name in tools), (name, practices)
