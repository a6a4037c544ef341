"""Recipes: which tool does the kind of job the goal asks for, said in one line each.

Small models pick tools by their place in the list or by the goal's words ("add a
function" → edit_file over the def line of another function; a rename by edit_file on the
definition alone). A line per kind of goal, only for the kinds the goal shows and the tools
the run may use, names the tool that does that job in one call. The lines sit with the
best practices in the system prompt, the same on every turn (the cached prefix survives).
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agentls.agent.context import RunContext
from agentls.agent.protocols import DirectiveProvider
from agentls.tools.permissions import Permission

_ANY = re.IGNORECASE
#: "Add a module docstring", "a docstring at the top of x.py"
MODULE_DOC = re.compile(r"\bmodule\s+(?:docstring|documentation|comment)|\b(?:docstring|comment)\b.{0,30}\btop of\b", _ANY)
#: "Write a pytest test for add", "add tests for is_palindrome" (not "make the tests pass")
WRITES_TESTS = re.compile(r"\b(?:write|add|create)\s+(?:an?\s+|some\s+|\w+\s+)?(?:pytest\s+|unit\s+)?tests?\b", _ANY)
#: "Add a function subtract(a, b)", "write a new class"
ADDS_DEFINITION = re.compile(r"\b(?:add|write|create|implement)\s+(?:an?|one|another)\s+(?:new\s+)?(?:function|method|class)\b", _ANY)
#: (pattern over the goal, the permission the tool needs, the line)
RECIPES: list[tuple[re.Pattern[str], Permission | None, str]] = [
    (
        ADDS_DEFINITION,
        Permission.FILESYSTEM_WRITE,
        "To add a new function, method or class to an existing file, call insert_symbol with "
        "the file's path and the whole new definition (its def/class line and its body).",
    ),
    (
        re.compile(r"\bdocstrings?\b|\bjsdoc\b|\bdocument\b", _ANY),
        Permission.FILESYSTEM_WRITE,
        "To add or replace a docstring, call add_docstring with the file, the function or "
        "class name, and the text only (no quotes).",
    ),
    (
        MODULE_DOC,
        Permission.FILESYSTEM_WRITE,
        "For the module's own docstring (at the top of the file), the symbol is `module`.",
    ),
    (
        re.compile(r"\brename\b", _ANY),
        Permission.FILESYSTEM_WRITE,
        "To rename something, call rename_symbol once with the file that defines it, its "
        "current name and the new name: it changes the definition and every use in every file.",
    ),
    (
        re.compile(r"\btype hints?\b|\bannotat|\btyped?\b.{0,20}\b(?:parameters?|arguments?|return)", _ANY),
        Permission.FILESYSTEM_WRITE,
        "To add type hints to a function, call edit_file with `old` = its def line exactly as "
        "it reads and `new` = that same line with the hints; the body stays as it is (one call "
        "per function).",
    ),
    (
        WRITES_TESTS,
        Permission.FILESYSTEM_WRITE,
        "To write tests, call write_file with the test file's path and its whole content: "
        "import what it tests from its module (`from <module> import <name>`), then functions named test_… that "
        "assert what the code returns for given inputs. Do not change the code under test.",
    ),
    (
        re.compile(r"\btests?\b.{0,60}\bpass|\bpass\b.{0,30}\btests?\b|\bfail", _ANY),
        Permission.SHELL_EXECUTION,
        "After changing the code, call run_test_suite to see whether the tests pass; when "
        "they do, call finish.",
    ),
]
QUESTION = (
    "When you know the answer, call finish with the answer itself in the summary (the "
    "names, values and places you found), not a description of the question."
)
_QUESTION = re.compile(
    r"\?\s*$|^\s*(?:what|which|where|who|how|why|when|list|tell)\b|\b(?:explain|describe|summary|summari[sz]e|report)\b",
    _ANY,
)


class RecipesComponent(DirectiveProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run

    def get_best_practices(self) -> Iterator[str]:
        goal, perms = self.run.goal, self.run.tools.permissions
        for pattern, needs, line in RECIPES:
            if pattern.search(goal) and (needs is None or needs in perms):
                yield line
        if _QUESTION.search(goal):
            yield QUESTION
