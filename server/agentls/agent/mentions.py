"""Mentions: the context a goal names with `@` (DESIGN §9), found in its text.

The grammar. A mention is an `@` at the start of the goal or after white space, an opening
bracket or a quote, followed by one of:

| written | kind | value |
|---|---|---|
| `@problems` | problems | the diagnostics of the open documents |
| `@diff` | diff | the working tree's `git diff` |
| `@symbol:Name` (`@symbol:Cart.total`) | symbol | the name's definition, from the index |
| `@url:https://…` | url | the page, fetched as `web_fetch` fetches it |
| `@path/to/file` (`@./setup.py`) | path | a workspace file's text (a folder: its listing) |
| `@README.md` | path | only when the workspace has that file or folder |

Trailing punctuation (`.,;:!?)]}'"` and backquotes) ends a mention, so "see @src/app.py."
names `src/app.py`. The keywords win over files of the same name. A word with a `/` is
always a path mention (`@../x` too: it is refused when resolved, like any tool path); a
word without one is a mention only when the workspace has it, so `@property` or
`@pytest.fixture` in prose stays prose, and an e-mail address (`me@example.com`: no space
before the `@`) is never a mention. The goal's text is left as written.
Must not know: how a mention is resolved, tools, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

MentionKind = Literal["path", "symbol", "problems", "diff", "url"]

_AT = re.compile(r"(?<![^\s(\[{\"'`])@(?P<body>[^\s@]+)")
_TRAILING = ".,;:!?)]}\"'`"
_NAME = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")
KEYWORDS: dict[str, MentionKind] = {"problems": "problems", "diff": "diff"}


@dataclass(frozen=True, slots=True)
class Mention:
    kind: MentionKind
    value: str  # the path, name or URL ('' for problems and diff)
    text: str  # as the goal writes it, `@` included

    @property
    def valid(self) -> bool:
        """Whether the value has the kind's form (a symbol's a name, a URL's http(s))."""
        if self.kind == "symbol":
            return bool(_NAME.match(self.value))
        if self.kind == "url":
            return self.value.lower().startswith(("http://", "https://"))
        return True


def find_mentions(goal: str, exists: Callable[[str], bool]) -> list[Mention]:
    """The mentions of `goal`, in order, each once. `exists(path)`: whether the workspace
    has that file or folder (asked only of words without a `/`)."""
    found: dict[tuple[str, str], Mention] = {}
    for match in _AT.finditer(goal):
        body = match["body"]
        clean = body.rstrip(_TRAILING)
        if clean.endswith("(") and body[len(clean) :].startswith(")"):  # `@symbol:main()`
            clean += ")"
        mention = _mention(clean, exists)
        if mention is not None:
            found.setdefault((mention.kind, mention.value), mention)
    return list(found.values())


def _mention(body: str, exists: Callable[[str], bool]) -> Mention | None:
    text = "@" + body
    if body in KEYWORDS:
        return Mention(KEYWORDS[body], "", text)
    head, colon, rest = body.partition(":")
    if colon and head == "symbol":
        return Mention("symbol", rest.removesuffix("()"), text)
    if colon and head == "url":
        return Mention("url", rest, text)
    if not body or body.startswith(":"):
        return None
    if "/" in body:
        return Mention("path", body.removeprefix("./") or ".", text)
    return Mention("path", body, text) if exists(body) else None
