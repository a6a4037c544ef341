"""The index's state as resolution reads it: the files, their lookup tables, the module
maps, the word map and the generation — read-only, and nothing else.

The resolver (resolve.py and the values it evaluates: values.py, hinted.py, deadends.py,
callbacks.py) and the import map (importers.py) are typed against this view rather than
against `IndexState` (state.py), because the state holds them: each reads what it needs,
and neither can reach the lock, the builder or the questions. The questions read a
wider view, `ReadOnlyState` (readonly.py), which extends this one. `IndexState` is the
one implementation of both. Must not know: how the state is built or kept current, LSP, tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agentls.analysis.grammar import LanguageSpec
    from agentls.analysis.model import FileIndex, Occurrences
    from agentls.analysis.modules import EsModules, PythonModules


class IndexView(Protocol):
    @property
    def files(self) -> Mapping[str, FileIndex]:
        """One FileIndex per analysed file, by workspace-relative path."""

    @property
    def generation(self) -> int:
        """+1 whenever a file's content changes: what is cached per generation is stale."""

    @property
    def py_modules(self) -> PythonModules: ...

    @property
    def es_modules(self) -> EsModules: ...

    def spec(self, path: str) -> LanguageSpec | None: ...

    def module_system(self, path: str) -> str: ...

    def bindings(self, path: str) -> dict[tuple[int, str], list[int]]:
        """The file's symbols by (scope, name), in source order."""

    def def_sites(self, path: str) -> dict[int, int]:
        """The file's symbols by the offset of their name."""

    def scope_starts(self, path: str) -> list[int]: ...

    def import_spans(self, path: str) -> tuple[list[int], list[int]]: ...

    def ensure_occurrences(self, path: str) -> Occurrences:
        """The file's occurrence table (filled on first use)."""

    def files_with_word(self, name: str) -> frozenset[str]:
        """The files holding `name` as a word (a superset of those that can name it)."""
