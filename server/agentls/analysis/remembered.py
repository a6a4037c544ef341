"""The searches remembered: the uses per file the last reference searches found, by key,
valid for one index generation (any change to a file forgets them all). An editor asks
again for the same symbol (peek, then the references view; the agent's tools after the
user), and answering it again then needs neither the files' tables nor their unpacked
indexes. Kept by the index's state; filled and read by references.py.
Must not know: how uses are found, LSP, tools.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict

from agentls.analysis.keys import Key

#: A file's uses of a key: their byte offsets, and the name at each (one string when all
#: are the same name, as they are but for aliases).
Uses = tuple["array[int]", "str | list[str]"]

#: Searches remembered per index (by key, while no file changes), bounded by searches and
#: by the uses they hold (4 bytes each, plus the name lists).
REMEMBERED = 512
REMEMBERED_USES = 500_000


class Remembered:
    """The last searches' uses per file (at most REMEMBERED searches, REMEMBERED_USES uses),
    valid for one index generation; the least recently asked go first."""

    def __init__(self) -> None:
        self.generation = -1
        self.entries: OrderedDict[Key, dict[str, Uses]] = OrderedDict()
        self.uses = 0

    def _start(self, generation: int) -> None:
        self.entries.clear()
        self.uses = 0
        self.generation = generation

    def get(self, key: Key, generation: int) -> dict[str, Uses] | None:
        if generation != self.generation:
            self._start(generation)
            return None
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: Key, generation: int, found: dict[str, Uses]) -> None:
        if generation != self.generation:
            self._start(generation)
        old = self.entries.pop(key, None)
        if old is not None:
            self.uses -= _count(old)
        self.entries[key] = found
        self.uses += _count(found)
        while len(self.entries) > 1 and (len(self.entries) > REMEMBERED or self.uses > REMEMBERED_USES):
            _, dropped = self.entries.popitem(last=False)
            self.uses -= _count(dropped)


def _count(found: dict[str, Uses]) -> int:
    return sum(len(starts) for starts, _ in found.values())
