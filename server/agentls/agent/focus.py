"""What a small model is spared: the planning turn, and the tools a goal has no use for.

A model that says it is small (`small = True`, as the embedded one does) gets the goal
itself as its one task (the loop skips planning: a small model's plans split a fix into
read/read/edit tasks whose later ones undid it), and is offered per turn only the tools of the core categories (reading, searching and
editing files, code navigation and symbol edits) plus any tool a word of the goal names
(`git`, `commit`, `test`, `memory`, …; an MCP tool `mcp__<server>__<tool>` when the goal
names its server, a part of its name, or says `mcp`); `finish` and other non-tool commands always;
`write_file` only when the goal speaks of a new file or of writing one, the code-navigation
tools only when it asks where something is, who calls it, or about syntax or imports. Fewer
tools mean a shorter prompt, a smaller grammar and fewer wrong picks.
Must not know: particular tools, the loop's internals, models' classes, LSP.
"""

from __future__ import annotations

import re
from typing import Any

from agentls.agent.command import Command
from agentls.agent.goal import GoalReading

CORE_CATEGORIES = frozenset({"filesystem", "code"})
#: Core tools held back unless the goal uses one of these words: a small model reaches
#: for write_file to change a file, and rewrites it whole.
ONLY_WHEN_ASKED = {
    "write_file": frozenset({"new", "create", "write"}),
    # Code tools a small model otherwise calls in list order before it answers (the 1.5B
    # ran parse_ast → find_symbol_definition → find_references on every question, ~20 s a
    # turn, though the named file was already in its prompt): offered when the goal asks.
    "parse_ast": frozenset({"ast", "syntax", "parse", "tree", "outline", "structure"}),
    "dependency_graph": frozenset({"graph", "dependency", "dependencie", "depend", "import", "module"}),
    "find_references": frozenset({"caller", "call", "called", "use", "used", "usage", "reference", "where", "every", "everywhere"}),
    "find_symbol_definition": frozenset({"where", "defined", "define", "definition", "which", "locate"}),
}
#: Kinds of job that write whole files (so write_file is offered whatever the words).
WRITES_FILES = frozenset({"tests", "new_file", "implement"})
#: Name parts too generic to say a goal wants that tool.
_GENERIC = frozenset({"file", "files", "find", "symbol", "run", "add", "get", "list", "read", "write", "edit", "fetch", "search"})


def is_small(model: Any) -> bool:
    return bool(getattr(model, "small", False))


def focus(commands: list[Command], reading: GoalReading) -> list[Command]:
    """The commands worth offering a small model for the goal `reading` reads."""
    words = reading.words
    out = []
    for c in commands:
        parts = {p for p in re.split(r"[_-]+", c.name) if p and p not in _GENERIC}
        asked = ONLY_WHEN_ASKED.get(c.name)
        if c.name == "write_file" and (reading.kind in WRITES_FILES or reading.new_files or reading.also_tests):
            out.append(c)
        elif asked is not None:
            if asked & words:
                out.append(c)
        elif c.tool is None or c.category in CORE_CATEGORIES or parts & words:
            out.append(c)
    return out
