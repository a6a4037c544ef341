"""What a binding's value is, as the tags query hints it, in the text `Symbol.value` keeps:

    "Foo"     an instance of what `Foo` names: a call `Foo(...)`, an annotation `x: Foo`
              (also `"Foo"`, `Optional[Foo]`, `Foo | None`, `Foo[int]`)
    "=a.b"    the same value as `a.b`: an alias `x = a.b`
    "->Foo"   a function whose call makes an instance of `Foo` (its return annotation)

Captures: @hint.target the bound name, and one of @hint.value (a dotted name), @hint.type
(an annotation), @hint.alias (a dotted value), @hint.return (a return annotation). Which
names mean "no value" (`None`) and which wrappers hold one optional type (`Optional`,
`Union`) is language data (language.json `null_types`, `optional_wrappers`).
Must not know: tree-sitter beyond node byte offsets, resolution, LSP.
"""

from __future__ import annotations

import re
from typing import Any

from agentls.analysis.occurrences import dotted

_GENERIC = re.compile(r"^([\w.]+)\s*\[(.*)\]$", re.S)


def _split(text: str, sep: str) -> list[str]:
    """Top-level parts of `text` split at `sep` (brackets and quotes nest)."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def annotation(text: str, spec: Any) -> str | None:
    """The dotted name of the one class an annotation names, or None."""
    options = spec.options if spec is not None else {}
    nulls = set(options.get("null_types", ()))
    wrappers = set(options.get("optional_wrappers", ()))
    for _ in range(6):
        text = text.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
            continue
        kept = [p for p in _split(text, "|") if p not in nulls]
        if len(kept) != 1:
            return None
        if kept[0] != text:
            text = kept[0]
            continue
        m = _GENERIC.match(text)
        if m is None:
            return dotted(text)
        if m.group(1).rsplit(".", 1)[-1] not in wrappers:
            return dotted(m.group(1))  # `Foo[int]`: an instance of Foo
        args = [a for a in _split(m.group(2), ",") if a not in nulls]
        if len(args) != 1:
            return None
        text = args[0]
    return None


#: which hint wins when one name has several (`x: Foo = make()`): the annotation
_RANK = {"hint.type": 0, "hint.value": 1, "hint.alias": 2, "hint.return": 3}


def hint_value(data: bytes, caps: dict[str, list[Any]], spec: Any) -> tuple[int, str | None]:
    """The rank and the `Symbol.value` text of one hint match (None: nothing usable)."""
    cap = next((c for c in _RANK if c in caps), None)
    if cap is None:
        return len(_RANK), None
    rank = _RANK[cap]
    node = caps[cap][0]
    text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    if cap == "hint.value":
        return rank, dotted(text)
    value = dotted(text) if cap == "hint.alias" else annotation(text, spec)
    if value is None:
        return rank, None
    return rank, {"hint.alias": "=", "hint.return": "->"}.get(cap, "") + value
