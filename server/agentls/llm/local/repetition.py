"""A reply that has gone into a loop: the same line, give or take a literal, over and over.

Small models at temperature 0 sometimes fall into writing one line shape again and again
(the 1.5B: `if value.endswith('e'): …` for every letter, until the token limit, ~110 s a
turn on 2 cores). `looping(text)` tells such a reply early, so the provider stops the
turn instead of generating to the limit: among the last `WINDOW` lines, at most
`DISTINCT` different shapes (a line with its strings and numbers blanked out).
Must not know: llama.cpp, the agent.
"""

from __future__ import annotations

import re

WINDOW = 40
DISTINCT = 4
_LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"|\b\d+(?:\.\d+)?\b")


def shape(line: str) -> str:
    return _LITERAL.sub("_", line.strip())


def looping(text: str) -> bool:
    """Whether the last WINDOW non-blank lines of `text` repeat at most DISTINCT shapes."""
    lines = [line for line in text.splitlines()[-2 * WINDOW :] if line.strip()][-WINDOW:]
    return len(lines) >= WINDOW and len({shape(line) for line in lines}) <= DISTINCT
