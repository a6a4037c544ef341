"""Finding the one place an `edit_file` call means, and replacing it.

An exact match must be unique. Without one, a match that differs only in indentation and
trailing whitespace (compared line by line) is used when it is unique, and the new text is
re-indented to fit; whole lines removed without their indentation go with it. Otherwise the failure says why: not found (with the nearest candidate
lines, by difflib) or ambiguous (with the count and line numbers). CRLF files are matched
as if they used LF and keep their CRLF endings.
Must not know: files, proposals, the tool's models.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

MAX_LISTED = 10
MAX_CANDIDATES = 3
MAX_SHOWN_LINES = 8


class MatchError(Exception):
    """The old text is missing or ambiguous; the message says which and where."""


@dataclass(frozen=True, slots=True)
class Replacement:
    text: str
    fuzzy: bool  # matched ignoring indentation / trailing whitespace


def _exact_positions(text: str, old: str) -> list[int]:
    positions, start = [], text.find(old)
    while start != -1:
        positions.append(start)
        start = text.find(old, start + 1)
    return positions


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(new_lines: list[str], old_lines: list[str], file_lines: list[str]) -> list[str]:
    """Give the new lines the file's indentation, learnt from the matched old/file line pairs.

    A lead seen on an old line maps to its file line's lead; any other lead is shifted by
    the pairs' common shift, when they agree on one.
    """
    mapping: dict[str, str] = {}
    shifts: set[tuple[str, str]] = set()  # (added, removed) prefixes
    for old, actual in zip(old_lines, file_lines, strict=True):
        if not old.strip():
            continue
        o, f = _indent(old), _indent(actual)
        mapping.setdefault(o, f)
        if f.endswith(o):
            shifts.add((f[: len(f) - len(o)], ""))
        elif o.endswith(f):
            shifts.add(("", o[: len(o) - len(f)]))
        else:
            shifts.add(("?", "?"))
    shift = next(iter(shifts)) if len(shifts) == 1 and ("?", "?") not in shifts else None
    out = []
    for line in new_lines:
        if not line.strip():
            out.append("")
            continue
        lead, rest = _indent(line), line.lstrip()
        if lead in mapping:
            lead = mapping[lead]
        elif shift is not None:
            added, removed = shift
            lead = added + (lead[len(removed) :] if lead.startswith(removed) else lead)
        out.append(lead + rest)
    return out


def _line_list(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:MAX_LISTED])
    return shown + (", ..." if len(numbers) > MAX_LISTED else "")


def _candidates(lines: list[str], old_lines: list[str]) -> str:
    """The windows of the file most similar to the old text, numbered (0-based)."""
    n = max(1, len(old_lines))
    wanted = "\n".join(line.strip() for line in old_lines)
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(wanted)
    scored: list[tuple[float, int]] = []
    for i in range(max(1, len(lines) - n + 1)):
        matcher.set_seq1("\n".join(line.strip() for line in lines[i : i + n]))
        if matcher.real_quick_ratio() < 0.4 or matcher.quick_ratio() < 0.4:
            continue
        ratio = matcher.ratio()
        if ratio >= 0.4:
            scored.append((ratio, i))
    picked: list[int] = []
    for _ratio, i in sorted(scored, key=lambda s: (-s[0], s[1])):
        if all(abs(i - j) >= n for j in picked):
            picked.append(i)
        if len(picked) == MAX_CANDIDATES:
            break
    blocks = []
    for i in picked:
        window = lines[i : i + min(n, MAX_SHOWN_LINES)]
        body = "\n".join(f"  {i + k}| {line}" for k, line in enumerate(window))
        blocks.append(f"lines {i}-{i + len(window) - 1}:\n{body}")
    return "\n".join(blocks)


def replace_unique(text: str, old: str, new: str, path: str) -> Replacement:
    """Replace the one occurrence of `old` in `text` by `new`, or raise MatchError."""
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text, old, new = (s.replace("\r\n", "\n") for s in (text, old, new))
    hits = _exact_positions(text, old)
    if len(hits) > 1:
        numbers = [text.count("\n", 0, pos) for pos in hits]
        raise MatchError(
            f"old text is ambiguous: it occurs {len(hits)} times in {path} (lines "
            f"{_line_list(numbers)}, 0-based); include more surrounding lines to make it unique"
        )
    if hits:
        end = hits[0] + len(old) + _line_rest_in_new(text, hits[0] + len(old), new)
        start = _line_start_if_removed(text, hits[0], old, new)
        result, fuzzy = text[:start] + new + text[end:], False
    else:
        result, fuzzy = _fuzzy_replace(text, old, new, path), True
    return Replacement(result.replace("\n", "\r\n") if crlf else result, fuzzy)


def _line_start_if_removed(text: str, hit: int, old: str, new: str) -> int:
    """Where the replaced text starts: at the hit, or — when whole lines given without
    their indentation are removed (`old` = `print(x)\n`, starting with no blank; `new` = ``) — at their line's
    start: the indentation left behind would join the next line (the 1.5B's removal of a
    debug print was refused as an IndentationError)."""
    start = text.rfind("\n", 0, hit) + 1
    if new or not old.endswith("\n") or not old.strip() or old[:1] in " \t" or start == hit or text[start:hit].strip():
        return hit
    return start


def _line_rest_in_new(text: str, end: int, new: str) -> int:
    """How much of the line after the match `new` already ends with: `old` = `def f(a)`,
    `new` = `def f(a: int) -> int:` on the line `def f(a):` — the model wrote the line's
    closing `:` into `new` but not into `old`, and keeping it would double it. Only a short
    run of punctuation counts (never code the model may have meant to keep)."""
    stop = text.find("\n", end)
    rest = text[end : len(text) if stop < 0 else stop]
    bare = rest.rstrip()
    if not bare or len(bare) > 3 or any(c.isalnum() or c.isspace() for c in bare):
        return 0
    return len(bare) if new.rstrip().endswith(bare) else 0


def _blank_ends(lines: list[str]) -> tuple[int, int]:
    """How many blank lines `lines` starts and ends with."""
    lead = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    trail = next((i for i, line in enumerate(reversed(lines)) if line.strip()), len(lines))
    return lead, trail


def _split(text: str) -> list[str]:
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":  # a final newline ends the last line
        lines.pop()
    return lines


def _fuzzy_replace(text: str, old: str, new: str, path: str) -> str:
    lines = text.split("\n")
    raw_old = _split(old)
    lead, trail = _blank_ends(raw_old)
    old_lines = raw_old[lead : len(raw_old) - trail]
    if not old_lines:
        raise MatchError(f"old text (only whitespace) was not found in {path}")
    wanted = [line.strip() for line in old_lines]
    stripped = [line.strip() for line in lines]
    n = len(wanted)
    starts = [i for i in range(len(lines) - n + 1) if stripped[i : i + n] == wanted]
    if len(starts) > 1:
        raise MatchError(
            f"old text was not found exactly, and ignoring whitespace it occurs {len(starts)} "
            f"times in {path} (lines {_line_list(starts)}, 0-based); include more surrounding lines"
        )
    if not starts:
        near = _candidates(lines, old_lines)
        hint = f" The nearest candidates:\n{near}" if near else " No similar lines were found."
        raise MatchError(
            f"old text was not found in {path}.{hint}\nRead the file and retry with its exact text."
        )
    i = starts[0]
    new_lines = [] if new == "" else _split(new)
    # the blank lines trimmed off the old text's ends are trimmed off the new text's too
    new_lead, new_trail = _blank_ends(new_lines)
    new_lines = new_lines[min(lead, new_lead) : len(new_lines) - min(trail, new_trail)]
    indented = _reindent(new_lines, old_lines, lines[i : i + n])
    return "\n".join(lines[:i] + indented + lines[i + n :])
