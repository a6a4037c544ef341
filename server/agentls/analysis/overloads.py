"""Overload choice by arity: when a function has several declarations (TypeScript
overload signatures), a call site picks the first one whose parameter count admits the
call's argument count — what a type checker does first, without types.

Works on source text only: the call's arguments after the name, the parameter list of
each declaration. Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

import math
import re

_OPEN, _CLOSE = b"([{<", b")]}>"
_DEFAULT = re.compile(rb"(?<![=!<>])=(?![=>])")  # `x = 1`, not `=>` or `==`


def _split_top_level(text: bytes) -> list[bytes]:
    """Comma-separated parts of a bracketed list's inside, ignoring nested brackets and strings."""
    parts: list[bytes] = []
    depth, quote, start, i = 0, 0, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == 0x5C:  # backslash
                i += 1
            elif c == quote:
                quote = 0
        elif c in b"'\"`":
            quote = c
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c == 0x2C and depth == 0:  # comma
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return [p for p in (p.strip() for p in parts) if p]


def _bracketed(data: bytes, open_at: int, limit: int = 4000) -> bytes | None:
    """The text inside the parentheses opening at `open_at` (None if not closed soon)."""
    depth, quote = 0, 0
    end = min(len(data), open_at + limit)
    i = open_at
    while i < end:
        c = data[i]
        if quote:
            if c == 0x5C:
                i += 1
            elif c == quote:
                quote = 0
        elif c in b"'\"`":
            quote = c
        elif c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return data[open_at + 1 : i]
        i += 1
    return None


def call_arguments(data: bytes, name_end: int) -> int | None:
    """How many arguments the call right after a name passes; None if it is not a call."""
    i = name_end
    while i < len(data) and data[i] in b" \t":
        i += 1
    if i < len(data) and data[i] == 0x3C:  # explicit type arguments: f<T>(…)
        depth = 0
        while i < len(data):
            depth += data[i] == 0x3C
            depth -= data[i] == 0x3E
            i += 1
            if depth == 0:
                break
    if i >= len(data) or data[i] != 0x28:
        return None
    inside = _bracketed(data, i)
    return None if inside is None else len(_split_top_level(inside))


def arity(declaration: bytes, name: bytes) -> tuple[int, float] | None:
    """(required, maximum) parameters of a declaration's text; None if unreadable."""
    at = declaration.find(name)
    if at < 0:
        return None
    open_at = declaration.find(b"(", at + len(name))
    if open_at < 0:
        return None
    inside = _bracketed(declaration, open_at)
    if inside is None:
        return None
    params = [p for p in _split_top_level(inside) if not p.startswith(b"this:") and not p.startswith(b"this ")]
    required, maximum = 0, float(len(params))
    for p in params:
        head = p.split(b":", 1)[0]
        if p.startswith(b"..."):
            maximum = math.inf
        elif b"?" in head or _DEFAULT.search(p):
            continue
        else:
            required += 1
    return required, maximum


def choose(declarations: list[bytes], name: bytes, args: int) -> int | None:
    """Index of the first declaration that admits `args` arguments."""
    for k, text in enumerate(declarations):
        bounds = arity(text, name)
        if bounds is not None and bounds[0] <= args <= bounds[1]:
            return k
    return None
