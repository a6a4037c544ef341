"""Per-hunk review (DESIGN §4): one file change split into the hunks of its unified diff,
each with its own TextEdits against the same document version, and what a chosen subset
of hunks makes of the file.

Hunks are difflib's groups (`SequenceMatcher.get_grouped_opcodes`, the grouping
`unified_diff` prints), so hunk i of a file is the i-th `@@` section of its diff. A new
file is one hunk (create + insert), a deleted file one hunk (empty it + delete). Edits of
different hunks never overlap, so any subset applies to the original text in one go.
Must not know: LSP types (shapes are plain dicts), the proposal store, the agent.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agentls.tools.proposals.edit import NO_NEWLINE, split_lines, unified_diff
from agentls.workspace import LineIndex


@dataclass(frozen=True, slots=True)
class Span:
    """Bytes `start:end` of the original replaced by `text`."""

    start: int
    end: int
    text: bytes


@dataclass(frozen=True, slots=True)
class Hunk:
    index: int  # across the whole proposal
    path: str
    uri: str
    diff: str  # file headers plus this hunk's `@@` section
    edits: tuple[dict[str, Any], ...]  # LSP TextEdits against the original
    spans: tuple[Span, ...]
    deletes_file: bool = False

    @property
    def header(self) -> str:
        return next((ln for ln in self.diff.splitlines() if ln.startswith("@@")), "@@")

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "uri": self.uri, "diff": self.diff, "edits": list(self.edits)}


def _range(lines: LineIndex, start: int, end: int) -> dict[str, Any]:
    s_line, s_char = lines.position(start)
    e_line, e_char = lines.position(end)
    return {
        "start": {"line": s_line, "character": s_char},
        "end": {"line": e_line, "character": e_char},
    }


def _edit(lines: LineIndex, span: Span) -> dict[str, Any]:
    return {"range": _range(lines, span.start, span.end), "newText": span.text.decode("utf-8", "replace")}


def deletion_diff(path: str, old: bytes) -> str:
    """The unified diff of deleting a file (`+++ /dev/null`)."""
    lines = [ln.decode("utf-8", "replace") for ln in split_lines(old)]
    out = []
    for line in difflib.unified_diff(lines, [], fromfile=f"a/{path}", tofile="/dev/null"):
        out.append(line if line.endswith("\n") else line + "\n" + NO_NEWLINE)
    return "".join(out)


def _sections(diff: str) -> tuple[str, list[str]]:
    """A one-file unified diff → (its `---`/`+++` headers, its `@@` sections)."""
    head: list[str] = []
    sections: list[list[str]] = []
    for line in diff.splitlines(keepends=True):
        if line.startswith("@@"):
            sections.append([line])
        elif sections:
            sections[-1].append(line)
        else:
            head.append(line)
    return "".join(head), ["".join(s) for s in sections]


def file_hunks(
    path: str, uri: str, old: bytes | None, new: bytes | None, first: int = 0, context: int = 3
) -> list[Hunk]:
    """The hunks turning `old` (None: no file) into `new` (None: delete it), numbered from `first`."""
    if old is None:
        data = new or b""
        span = Span(0, 0, data)
        return [Hunk(first, path, uri, unified_diff(path, None, data), (_edit(LineIndex(b""), span),), (span,))]
    if new is None:
        span = Span(0, len(old), b"")
        edit = _edit(LineIndex(old), span)
        return [Hunk(first, path, uri, deletion_diff(path, old), (edit,), (span,), deletes_file=True)]
    a, b = split_lines(old), split_lines(new)
    decoded_a = [ln.decode("utf-8", "replace") for ln in a]
    decoded_b = [ln.decode("utf-8", "replace") for ln in b]
    offsets = [0]
    for line in a:
        offsets.append(offsets[-1] + len(line))
    head, sections = _sections(unified_diff(path, old, new, context))
    groups = list(difflib.SequenceMatcher(None, decoded_a, decoded_b).get_grouped_opcodes(context))
    if len(groups) != len(sections):  # cannot happen: the same matcher printed the diff
        raise RuntimeError(f"{path}: {len(groups)} hunks but {len(sections)} diff sections")
    lines = LineIndex(old)
    hunks = []
    for i, (group, section) in enumerate(zip(groups, sections, strict=True)):
        spans = tuple(
            Span(offsets[i1], offsets[i2], b"".join(b[j1:j2]))
            for tag, i1, i2, j1, j2 in group
            if tag != "equal"
        )
        edits = tuple(_edit(lines, s) for s in spans)
        hunks.append(Hunk(first + i, path, uri, head + section, edits, spans))
    return hunks


def apply_hunks(old: bytes | None, hunks: Iterable[Hunk]) -> bytes | None:
    """What `old` becomes with these hunks (all of one file) applied; None: the file is deleted."""
    chosen = list(hunks)
    if any(h.deletes_file for h in chosen):
        return None
    data = old or b""
    for span in sorted((s for h in chosen for s in h.spans), key=lambda s: s.start, reverse=True):
        data = data[: span.start] + span.text + data[span.end :]
    return data
