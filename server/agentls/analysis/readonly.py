"""The index's state as the questions read it: `ReadOnlyState`, a Protocol listing exactly
what answers.py, references.py, rename.py, symbols.py, repo_map.py, graph.py and what they
share (declarations.py, groups.py, locations.py) read — `IndexView` (view.py), plus the
resolver, the import map's candidates, the remembered searches, a file's words, lines,
positions and bytes, and the definitions by name — and nothing that changes the state:
no `forget*` or `warm`, and `files`, `generation`, `trees`, `configs` are not writable.

`IndexState` (state.py) is its one implementation, and only the index and the indexer
import state.py (import-linter), so a question cannot name the writable state and mypy
rejects one calling a mutator (tests/analysis/test_readonly_state.py). A Protocol costs
nothing at run time: the questions get the state itself, no wrapper between.
Must not know: how the state is built or kept current, the lock, LSP, tools.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from agentls.analysis.view import IndexView

if TYPE_CHECKING:
    from agentls.analysis.remembered import Remembered
    from agentls.analysis.resolve import Resolver
    from agentls.workspace import LineIndex


class ImportMap(Protocol):
    def candidates(self, state: IndexView, path: str) -> set[str]:
        """The files that can name `path`'s module-level names (its importers, transitively
        through re-exports)."""


class Sources(Protocol):
    def read_bytes(self, path: str) -> bytes | None:
        """A file's bytes: the editor's buffer if open, else the disk's; None if unreadable."""


class ReadOnlyState(IndexView, Protocol):
    @property
    def resolver(self) -> Resolver:
        """Resolution over the state: the binding an occurrence names, values of receivers."""

    @property
    def importers(self) -> ImportMap: ...

    @property
    def remembered(self) -> Remembered:
        """The last searches' uses per file: the one thing questions write (per generation)."""

    @property
    def workspace(self) -> Sources: ...

    def indexed(self, path: str) -> str | None:
        """The workspace-relative path of `path` if the index has it, else None."""

    def words(self, path: str) -> frozenset[str]: ...

    def occurrences_of(self, path: str, name: str) -> list[int]:
        """Indexes of the occurrences of `name` in the file's occurrence table."""

    def defs_by_name(self) -> Mapping[str, Sequence[tuple[str, int]]]:
        """Module- and class-level definitions by name: (path, symbol index)."""

    def line_index(self, path: str) -> LineIndex | None: ...

    def positions(self, path: str) -> Callable[[int], tuple[int, int]]:
        """Byte offset → (line, UTF-16 character) in `path`."""
