"""Where things are, as the answers give them: a byte range of a file as a Location, with
(line, UTF-16 character) positions from the state's converters (an all-ASCII file answers
from the line starts its index keeps); a symbol's name as a Location, with its kind and
container; and a (line, UTF-16 character) position of a question as a byte offset.
Shared by every question module. Must not know: resolution, LSP, tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentls.analysis.model import Location

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState


def location(state: ReadOnlyState, path: str, start: int, end: int, name: str = "", kind: str = "", container: str = "") -> Location:
    position = state.positions(path)
    return Location(path, position(start), position(end), name, kind, container)


def symbol_location(state: ReadOnlyState, path: str, i: int) -> Location:
    fi = state.files[path]
    sym = fi.symbols[i]
    container = fi.symbols[sym.parent].name if sym.parent >= 0 else ""
    return location(state, path, sym.sel_start, sym.sel_end, sym.name, sym.kind, container)


def offset_at(state: ReadOnlyState, path: str, line: int, character: int) -> int | None:
    """The byte offset of (line, UTF-16 character) in `path`; None when it cannot be read."""
    li = state.line_index(path)
    return None if li is None else li.offset(line, character)
