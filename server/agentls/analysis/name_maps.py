"""Workspace-wide maps by name, kept current file by file: which files hold a word (the
candidates of a reference search), and where each name is defined at module or class
level (name-matched fallbacks, workspace symbols, unique members).

Built on first use from what travels outside each file's packed blob (its names and its
top-level definitions), so building them unpacks nothing; a changed file is only marked,
and folded in (its old entries out, its new ones in) at the next question — a keystroke
costs a set insertion, not a rebuild over 1.5k files.
Must not know: parsing, resolution, LSP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentls.analysis.model import FileIndex

Words = Callable[[str], Iterable[str]]


class NameMaps:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        # a word held by one file maps to its path, by several to a set of paths (most
        # words are in one file, and a set is ten times the size of a reference)
        self._words: dict[str, str | set[str]] | None = None
        self._defs: dict[str, list[tuple[str, int]]] | None = None
        self._file_words: dict[str, Iterable[str]] = {}
        self._file_defs: dict[str, tuple[str, ...]] = {}
        self._dirty: set[str] = set()

    def touch(self, path: str) -> None:
        """`path` changed, appeared or went away."""
        if self._words is not None or self._defs is not None:
            self._dirty.add(path)

    def files_with(self, files: dict[str, FileIndex], words: Words, name: str) -> frozenset[str] | set[str]:
        self._refresh(files, words)
        assert self._words is not None
        found = self._words.get(name)
        if found is None:
            return frozenset()
        return frozenset((found,)) if isinstance(found, str) else found

    def definitions(self, files: dict[str, FileIndex], words: Words) -> dict[str, list[tuple[str, int]]]:
        self._refresh(files, words)
        assert self._defs is not None
        return self._defs

    # --- keeping them current ----------------------------------------------------------
    def _refresh(self, files: dict[str, FileIndex], words: Words) -> None:
        if self._words is None or self._defs is None:
            self._words, self._defs = {}, {}
            self._file_words, self._file_defs = {}, {}
            self._dirty.clear()
            for path, fi in files.items():
                self._add(path, fi, words)
            return
        if not self._dirty:
            return
        dirty, self._dirty = self._dirty, set()
        for path in dirty:
            self._drop(path)
            now = files.get(path)
            if now is not None:
                self._add(path, now, words)

    def _add(self, path: str, fi: FileIndex, words: Words) -> None:
        assert self._words is not None and self._defs is not None
        # a filled file's names are distinct already: keep a reference, not a copy
        ws = fi.names if fi.names is not None else frozenset(words(path))
        self._file_words[path] = ws
        index = self._words
        for w in ws:
            holders = index.get(w)
            if holders is None:
                index[w] = path
            elif isinstance(holders, str):
                if holders != path:
                    index[w] = {holders, path}
            else:
                holders.add(path)
        top = fi.top_definitions()
        self._file_defs[path] = tuple({name for name, _ in top})
        defs = self._defs
        for name, i in top:
            found = defs.get(name)
            if found is None:
                defs[name] = [(path, i)]
            else:
                found.append((path, i))

    def _drop(self, path: str) -> None:
        assert self._words is not None and self._defs is not None
        for w in self._file_words.pop(path, ()):
            holders = self._words.get(w)
            if holders is None:
                continue
            if isinstance(holders, str):
                if holders == path:
                    del self._words[w]
                continue
            holders.discard(path)
            if len(holders) == 1:
                self._words[w] = next(iter(holders))
            elif not holders:
                del self._words[w]
        for name in self._file_defs.pop(path, ()):
            kept = [d for d in self._defs.get(name, ()) if d[0] != path]
            if kept:
                self._defs[name] = kept
            else:
                self._defs.pop(name, None)
