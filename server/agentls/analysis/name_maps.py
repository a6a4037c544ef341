"""Workspace-wide maps by name, kept current file by file: which files hold a word (the
candidates of a reference search), and where each name is defined at module or class
level (name-matched fallbacks, workspace symbols, unique members).

Built on first use from what travels outside each file's packed blob (its names and its
top-level definitions), so building them unpacks nothing; a changed file is only marked,
and folded in (its old entries out, its new ones in) at the next question — a keystroke
costs a set insertion, not a rebuild over 1.5k files. Which files hold a word is asked of
each file's word set when first needed and remembered until a file changes.
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
        # each file's words as a set; which files hold a word is found by asking each set
        # (1.5k lookups, ~0.1 ms) the first time the word is asked, then remembered until
        # a file changes: building a word → files map up front cost 0.1 s of every start
        self._file_words: dict[str, frozenset[str]] | None = None
        self._holders: dict[str, frozenset[str]] = {}
        self._defs: dict[str, list[tuple[str, int]]] = {}
        self._file_defs: dict[str, tuple[str, ...]] = {}
        self._dirty: set[str] = set()

    def touch(self, path: str) -> None:
        """`path` changed, appeared or went away."""
        if self._file_words is not None:
            self._dirty.add(path)

    def files_with(self, files: dict[str, FileIndex], words: Words, name: str) -> frozenset[str]:
        self._refresh(files, words)
        found = self._holders.get(name)
        if found is None:
            assert self._file_words is not None
            found = self._holders[name] = frozenset([path for path, ws in self._file_words.items() if name in ws])
        return found

    def definitions(self, files: dict[str, FileIndex], words: Words) -> dict[str, list[tuple[str, int]]]:
        self._refresh(files, words)
        return self._defs

    # --- keeping them current ----------------------------------------------------------
    def _refresh(self, files: dict[str, FileIndex], words: Words) -> None:
        if self._file_words is None:
            self._file_words, self._holders, self._defs, self._file_defs = {}, {}, {}, {}
            self._dirty.clear()
            for path, fi in files.items():
                self._add(path, fi, words)
            return
        if not self._dirty:
            return
        dirty, self._dirty = self._dirty, set()
        self._holders.clear()
        for path in dirty:
            self._drop(path)
            now = files.get(path)
            if now is not None:
                self._add(path, now, words)

    def _add(self, path: str, fi: FileIndex, words: Words) -> None:
        assert self._file_words is not None
        self._file_words[path] = frozenset(fi.names if fi.names is not None else words(path))
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
        assert self._file_words is not None
        self._file_words.pop(path, None)
        for name in self._file_defs.pop(path, ()):
            kept = [d for d in self._defs.get(name, ()) if d[0] != path]
            if kept:
                self._defs[name] = kept
            else:
                self._defs.pop(name, None)
