"""What a small model is spared: the planning turn, and the tools a goal has no use for.

A model that says it is small (`small = True`, as the embedded one does) gets the goal
itself as its one task (the loop skips planning: a small model's plans split a fix into
read/read/edit tasks whose later ones undid it), and is offered per turn only the tools of the core categories (reading, searching and
editing files, code navigation and symbol edits) plus any tool a word of the goal names
(`git`, `commit`, `test`, `memory`, …); `finish` and other non-tool commands always;
`write_file` only when the goal speaks of a new file or of writing one. Fewer
tools mean a shorter prompt, a smaller grammar and fewer wrong picks.
Must not know: particular tools, the loop's internals, models' classes, LSP.
"""

from __future__ import annotations

import re
from typing import Any

from agentls.agent.command import Command

CORE_CATEGORIES = frozenset({"filesystem", "code"})
#: Core tools held back unless the goal uses one of these words: a small model reaches
#: for write_file to change a file, and rewrites it whole.
ONLY_WHEN_ASKED = {"write_file": frozenset({"new", "create", "write"})}
#: Name parts too generic to say a goal wants that tool.
_GENERIC = frozenset({"file", "files", "find", "symbol", "run", "add", "get", "list", "read", "write", "edit"})


def is_small(model: Any) -> bool:
    return bool(getattr(model, "small", False))


def _words(goal: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", goal.lower()))
    return words | {w[:-1] for w in words if w.endswith("s")}


def focus(commands: list[Command], goal: str) -> list[Command]:
    """The commands worth offering a small model for `goal`."""
    words = _words(goal)
    out = []
    for c in commands:
        parts = {p for p in c.name.split("_") if p not in _GENERIC}
        asked = ONLY_WHEN_ASKED.get(c.name)
        if asked is not None:
            if asked & words:
                out.append(c)
        elif c.tool is None or c.category in CORE_CATEGORIES or parts & words:
            out.append(c)
    return out
