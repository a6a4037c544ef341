"""How a proposal shows its change: a unified diff and an LSP-shaped WorkspaceEdit (plain JSON).

The edit replaces only the lines that differ (common leading and trailing lines are kept
out of the range); ranges are 0-based lines and UTF-16 characters. A new file becomes a
create-file operation followed by an insert at 0:0.
Must not know: LSP types (the shapes are plain dicts), the agent, the proposal store.
"""

from __future__ import annotations

import difflib
from typing import Any

from agentls.workspace import LineIndex

NO_NEWLINE = "\\ No newline at end of file\n"


def split_lines(data: bytes) -> list[bytes]:
    """Lines split on b'\\n' only, each keeping its newline (the last may lack one)."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def unified_diff(
    path: str, old: bytes | None, new: bytes, context: int = 3, labels: tuple[str, str] = ("a", "b")
) -> str:
    """A unified diff with `a/path` and `b/path` headers (git style, text decoded as UTF-8;
    `labels` replace `a` and `b`)."""
    old_lines = [ln.decode("utf-8", "replace") for ln in split_lines(old or b"")]
    new_lines = [ln.decode("utf-8", "replace") for ln in split_lines(new)]
    out: list[str] = []
    for line in difflib.unified_diff(
        old_lines, new_lines, fromfile=f"{labels[0]}/{path}", tofile=f"{labels[1]}/{path}", n=context
    ):
        if line.endswith("\n"):
            out.append(line)
        else:  # a last line without a newline
            out.append(line + "\n" + NO_NEWLINE)
    return "".join(out)


def changed_span(old: bytes, new: bytes) -> tuple[int, int, bytes]:
    """(start byte, end byte) in `old` and the replacement bytes, trimmed to whole lines.

    Common leading and trailing lines are left out, so the edit touches only what changed.
    """
    a, b = split_lines(old), split_lines(new)
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    start = sum(len(line) for line in a[:prefix])
    end = len(old) - sum(len(line) for line in a[len(a) - suffix :])
    replacement = b"".join(b[prefix : len(b) - suffix])
    return start, end, replacement


def text_edit(old: bytes, new: bytes) -> dict[str, Any]:
    """One LSP TextEdit turning `old` into `new`, with a minimal line range."""
    start, end, replacement = changed_span(old, new)
    lines = LineIndex(old)
    s_line, s_char = lines.position(start)
    e_line, e_char = lines.position(end)
    return {
        "range": {
            "start": {"line": s_line, "character": s_char},
            "end": {"line": e_line, "character": e_char},
        },
        "newText": replacement.decode("utf-8", "replace"),
    }


def workspace_edit(uri: str, version: int | None, old: bytes | None, new: bytes) -> dict[str, Any]:
    """The WorkspaceEdit for one file: a TextDocumentEdit, or create + insert for a new file."""
    if old is None:
        insert = {
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "newText": new.decode("utf-8", "replace"),
        }
        return {
            "documentChanges": [
                {
                    "kind": "create",
                    "uri": uri,
                    "options": {"overwrite": False, "ignoreIfExists": False},
                },
                {"textDocument": {"uri": uri, "version": None}, "edits": [insert]},
            ]
        }
    return {
        "documentChanges": [
            {"textDocument": {"uri": uri, "version": version}, "edits": [text_edit(old, new)]}
        ]
    }


def apply_text_edit(old: bytes, edit: dict[str, Any]) -> bytes:
    """Apply one TextEdit (as built above) to `old`; used to check edits round-trip."""
    lines = LineIndex(old)
    rng = edit["range"]
    start = lines.offset(rng["start"]["line"], rng["start"]["character"])
    end = lines.offset(rng["end"]["line"], rng["end"]["character"])
    start = len(old) if start is None else start
    end = len(old) if end is None else end
    return old[:start] + edit["newText"].encode("utf-8") + old[end:]


def changed_region(old: bytes | None, new: bytes, context: int = 2, max_lines: int = 40) -> str:
    """The changed lines of `new` with `context` lines around them, as the file now reads:
    'Lines A-B of the file now read:' and the text (0-based line numbers)."""
    lines = split_lines(new)
    if old is None:
        first, count = 0, len(lines)
    else:
        start, _end, replacement = changed_span(old, new)
        first = old[:start].count(b"\n")
        count = len(split_lines(replacement))
    if not lines:
        return "The file is now empty."
    if count == 0:  # lines were only removed: show where
        count = 1
    a, b = max(first - context, 0), min(first + count + context, len(lines))
    shown = lines[a : min(b, a + max_lines)]
    text = b"".join(shown).decode("utf-8", "replace").rstrip("\n")
    cut = f" (first {len(shown)} shown)" if b - a > len(shown) else ""
    return f"Lines {a}-{a + len(shown) - 1} now read{cut}:\n{text}"
