"""Recipes: which tool does the kind of job the goal asks for, said in one line each.

Small models pick tools by their place in the list or by the goal's words ("add a
function" → edit_file over the def line of another function; a rename by edit_file on the
definition alone). A line per kind of job — the run's goal reading's, only for tools the
run may use — names the tool that does it in one call. The turn policy puts the lines in
the acting prompt (policy.py `how`), not the system prompt, so the system prompt is the
same for every run of a mode (llama.cpp reuses its evaluated prefix across runs). The
lines themselves are text in prompts/recipes.toml.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

from agentls.agent.context import RunContext
from agentls.agent.prompts import texts
from agentls.tools.permissions import Permission


def recipe_lines(run: RunContext) -> list[str]:
    """The recipe lines for the run's job (see the module docstring)."""
    reading, perms = run.reading, run.tools.permissions
    text = texts("recipes")
    out: list[str] = []
    if not reading.wants_change:
        return [text["answer"]]
    if Permission.FILESYSTEM_WRITE not in perms:
        return out
    if reading.kind in ("add", "docstring", "rename", "hints", "tests", "implement"):
        out.append(text[reading.kind])
    if reading.module_doc:
        out.append(text["module_doc"])
    if reading.also_tests:
        out.append(text["tests"])
    if reading.protected:
        out.append(text["protected"].format(files=", ".join(reading.protected)))
    if reading.tests_matter and Permission.SHELL_EXECUTION in perms:
        out.append(text["tests_run"])
    return out
