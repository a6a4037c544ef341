"""Positions: byte offsets in UTF-8 source (what tree-sitter speaks) and LSP positions
(0-based line, UTF-16 code units), converted both ways.

Must not know: LSP types; positions here are plain `(line, character)` tuples.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate


def _line_starts(data: bytes) -> array[int]:
    # each line's start is the last one's plus its length and the newline (C-level loops)
    starts = array("I", accumulate(map((1).__add__, map(len, data.split(b"\n"))), initial=0))
    starts.pop()
    return starts


def ascii_line_starts(data: bytes) -> array[int] | None:
    """The line starts of an all-ASCII source (where a byte column is the UTF-16 column),
    None for any other: what an index keeps to answer positions without the source."""
    return _line_starts(data) if data.isascii() else None


class LineIndex:
    """Line table of one UTF-8 source; converts byte offsets to and from LSP positions."""

    __slots__ = ("data", "starts")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = _line_starts(data)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_bytes(self, line: int) -> bytes:
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.data)
        return self.data[start:end]

    def position(self, offset: int) -> tuple[int, int]:
        """Byte offset → (line, UTF-16 character)."""
        offset = max(0, min(offset, len(self.data)))
        line = self.line_of(offset)
        prefix = self.data[self.starts[line] : offset]
        if prefix.isascii():
            return line, len(prefix)
        return line, len(prefix.decode("utf-8", "replace").encode("utf-16-le")) // 2

    def point(self, offset: int) -> tuple[int, int]:
        """Byte offset → (line, byte column): tree-sitter's point."""
        line = self.line_of(offset)
        return line, offset - self.starts[line]

    def offset(self, line: int, character: int) -> int | None:
        """(line, UTF-16 character) → byte offset; None when the line is out of range.

        A character past the end of the line clamps to the line's end (as LSP asks).
        """
        if line < 0 or character < 0:
            return None
        if line >= len(self.starts):
            if line == len(self.starts) and character == 0:
                return len(self.data)
            return None
        raw = self.line_bytes(line)
        content = raw.rstrip(b"\r\n")
        base = self.starts[line]
        if content.isascii():
            return base + min(character, len(content))
        text = content.decode("utf-8", "replace")
        units = 0
        for i, ch in enumerate(text):
            if units >= character:
                return base + len(text[:i].encode("utf-8"))
            units += 2 if ord(ch) > 0xFFFF else 1
        return base + len(content)
