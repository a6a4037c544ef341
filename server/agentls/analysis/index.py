"""The workspace index: one FileIndex per analysed file, kept current, and the questions
the editor and the agent ask of it — the library's one entry point.

`WorkspaceIndex` owns three things and composes the rest: the state (`IndexState`,
state.py: the files and what is derived from them), the lock (every public method takes
it; reference searches per slice), and the dispatch of each question to the module that
answers it (answers.py, references.py, rename.py, symbols.py, repo_map.py, graph.py),
which reads the state through `ReadOnlyState` (readonly.py) and never this index. Building and keeping the state current is
the `Indexer`'s (indexing.py). Must not know: LSP, tools, the agent.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from agentls.analysis import answers, model, references, rename, repo_map, symbols, syntax
from agentls.analysis.build import gc_paused
from agentls.analysis.grammar import LanguageSpec, suffixes
from agentls.analysis.graph import DependencyGraph, build_graph
from agentls.analysis.indexing import Indexer, Progress
from agentls.analysis.model import (
    FileIndex,
    HoverInfo,
    Location,
    Occurrences,
    Resolution,
    SymbolNode,
)
from agentls.analysis.modules import PythonModules
from agentls.analysis.state import CONFIG_FILES, IndexState
from agentls.workspace import FileWalker, LineIndex, Workspace
from agentls.workspace.documents import ByteEdit

log = logging.getLogger(__name__)


class WorkspaceIndex:
    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        workspace: Workspace | None = None,
        jobs: int = 0,
        cache_dir: str | os.PathLike[str] | None | bool = None,
        progress: Progress | None = None,
        write_cache: bool = True,
        occurrences: bool = True,
    ) -> None:
        self.workspace = workspace or Workspace(root)
        self.root = self.workspace.root
        if cache_dir is False:
            where: Path | None = None
        elif cache_dir is None or cache_dir is True:
            where = self.root / ".agentls" / "index"
        else:
            where = Path(cache_dir)
        self._lock = threading.RLock()
        self._map: tuple[tuple[int, int, tuple[str, ...]], str] | None = None  # see repo_map
        self.state = IndexState(self.workspace, reindex=self._reindex)
        self.walker = FileWalker(self.root, suffixes=(*suffixes(), *CONFIG_FILES))
        self.indexer = Indexer(
            self.state, self._lock, self.walker, cache_dir=where, jobs=jobs or (os.cpu_count() or 1),
            progress=progress, write_cache=write_cache, occurrences=occurrences,
        )  # fmt: skip
        self.remembered = self.state.remembered  # the searches remembered (never replaced)
        self._unpacks_frozen = 0

    def _reindex(self, rel: str, data: bytes) -> FileIndex | None:
        return self.indexer.update(rel, data, None)

    # --- the state and the build's settings, as attributes ---------------------------------
    @property
    def files(self) -> dict[str, FileIndex]:
        return self.state.files

    @property
    def generation(self) -> int:
        return self.state.generation

    @property
    def jobs(self) -> int:
        return self.indexer.jobs

    @property
    def progress(self) -> Progress | None:
        return self.indexer.progress

    @progress.setter
    def progress(self, progress: Progress | None) -> None:
        self.indexer.progress = progress

    # --- building and keeping current (indexing.py) ------------------------------------
    def build(self, save: bool = True) -> dict[str, Any]:
        """Index the workspace: reuse the cache for unchanged files, parse the rest (see
        Indexer.build)."""
        return self.indexer.build(save)

    def fill_occurrences(self) -> int:
        return self.indexer.fill_occurrences()

    def save_cache(self) -> None:
        self.indexer.save_cache()

    def refresh(self) -> list[str]:
        """Pick up changes made on disk outside the editor; return the changed paths."""
        return self.indexer.refresh()

    def update_file(self, path: str, data: bytes | None = None, edits: list[ByteEdit] | None = None) -> FileIndex | None:
        """Re-index one file from `data` (default: buffer or disk). With `edits` and a
        kept tree (an open document), re-parse incrementally."""
        with self._lock:
            return self.indexer.update(self.workspace.relative(path), data, edits)

    def remove_file(self, path: str) -> None:
        with self._lock:
            self.indexer.remove(self.workspace.relative(path))

    def close_file(self, path: str) -> None:
        """The editor closed a document: drop its tree and re-read it from disk."""
        with self._lock:
            self.indexer.close(self.workspace.relative(path))

    # --- how questions treat memory -------------------------------------------------------
    @contextlib.contextmanager
    def question(self) -> Iterator[None]:
        """A question (or a slice of one) with the cyclic GC held off, then `settle`: a full
        collection walking the unpacked symbols and tables cost 300–450 ms pauses on sympy,
        in the middle of the answers, the latency tail."""
        with gc_paused():
            try:
                yield
            finally:
                self.settle()

    def settle(self) -> None:
        """What questions unpacked and built (symbols, tables: long-lived and acyclic)
        leaves the cyclic GC's generations (`gc.freeze`, cheap), so no collection walks it
        again. Frozen objects are still freed by reference counting when dropped."""
        if model.UNPACKS - self._unpacks_frozen >= 16:
            self._unpacks_frozen = model.UNPACKS
            gc.freeze()

    @contextlib.contextmanager
    def _asking(self) -> Iterator[None]:
        """The lock and the GC discipline of one question or one slice of a search."""
        with self._lock, self.question():
            yield

    # --- lookups over the state (state.py) -------------------------------------------------
    def spec(self, path: str) -> LanguageSpec | None:
        return self.state.spec(path)

    @property
    def py_modules(self) -> PythonModules:
        return self.state.py_modules

    def ensure_occurrences(self, path: str) -> Occurrences:
        return self.state.ensure_occurrences(path)

    def occurrences_of(self, path: str, name: str) -> list[int]:
        return self.state.occurrences_of(path, name)

    def words(self, path: str) -> frozenset[str]:
        return self.state.words(path)

    def defs_by_name(self) -> dict[str, list[tuple[str, int]]]:
        return self.state.defs_by_name()

    def files_with_word(self, name: str) -> frozenset[str]:
        return self.state.files_with_word(name)

    def line_index(self, path: str) -> LineIndex | None:
        return self.state.line_index(path)

    def name_lines(self, path: str, name: str) -> list[int]:
        """The 0-based lines where `name` occurs as a code name in `path` (not in strings or
        comments), one entry per line."""
        with self._lock:
            table, li = self.state.ensure_occurrences(path), self.state.line_index(path)
            if li is None:
                return []
            return sorted({li.line_of(table.start[o]) for o in self.state.occurrences_of(path, name)})

    # --- questions: each answered by a module over the state --------------------------
    def definition(self, path: str, line: int, character: int) -> Resolution:
        with self._lock, self.question():
            rel = self.state.indexed(path)
            return answers.definition(self.state, rel, line, character) if rel else Resolution([], "none")

    def references(self, path: str, line: int, character: int, include_declaration: bool = True) -> Resolution:
        with self._lock, self.question():
            rel = self.state.indexed(path)
            return references.references(self.state, rel, line, character, include_declaration) if rel else Resolution([], "none")

    def references_stream(
        self, path: str, line: int, character: int, include_declaration: bool = True, slice_s: float = 0.004
    ) -> Iterator[list[Location]]:
        """The references of `references`, in slices of about `slice_s` of work each (files
        in path order, uses in source order). The lock is held per slice only, so other
        questions are answered between slices; raises references.ContentModified when a
        file changes before the last slice."""
        return references.stream(self.state, self._asking, path, line, character, include_declaration, slice_s)

    def find_definitions(self, name: str, path: str | None = None, limit: int = 50) -> Resolution:
        with self._lock:
            return answers.find_definitions(self.state, name, self.state.indexed(path) if path else None, limit)

    def find_references_by_name(self, name: str, path: str | None = None, limit: int = 500) -> Resolution:
        with self._lock:
            return references.references_by_name(self.state, name, self.state.indexed(path) if path else None, limit)

    def rename(self, path: str, line: int | None, character: int | None, new: str, symbol: str = "") -> rename.RenamePlan:
        """Every place the binding at the position (or, without one, `symbol` as named in
        `path`) is named, to become `new` (raises rename.RenameRefused with the reason)."""
        with self._lock:
            rel = self.state.indexed(path)
            if rel is None:
                raise rename.RenameRefused(f"{path} is not indexed")
            if line is None or character is None:
                where = rename.position_of(self.state, rel, symbol)
                if where is None:
                    raise rename.RenameRefused(f"{path} neither defines nor uses {symbol!r}")
                line, character = where
            return rename.plan_rename(self.state, rel, line, character, new)

    def prepare_rename(self, path: str, line: int, character: int) -> tuple[str, tuple[int, int], tuple[int, int]]:
        """The name at the position and its range, if what it names can be renamed
        (raises rename.RenameRefused with the reason)."""
        with self._lock:
            rel = self.state.indexed(path)
            if rel is None:
                raise rename.RenameRefused(f"{path} is not indexed")
            return rename.prepare_rename(self.state, rel, line, character)

    def syntax_errors(self, path: str, data: bytes) -> list[tuple[tuple[int, int], tuple[int, int], str]] | None:
        """An open document's syntax errors (syntax.error_regions) read from the tree kept
        for it, which must be the parse of `data`; None when no tree is kept."""
        with self._lock:
            rel = self.state.indexed(path)
            tree = self.state.trees.get(rel) if rel else None
            return syntax.error_regions(rel, data, tree=tree) if rel and tree is not None else None

    def hover(self, path: str, line: int, character: int) -> HoverInfo | None:
        with self._lock:
            rel = self.state.indexed(path)
            return answers.hover(self.state, rel, line, character) if rel else None

    def document_symbols(self, path: str) -> list[SymbolNode]:
        with self._lock:
            rel = self.state.indexed(path)
            return symbols.document_symbols(self.state, rel) if rel else []

    def workspace_symbols(self, query: str, limit: int = 100) -> list[Location]:
        with self._lock:
            return symbols.workspace_symbols(self.state, query, limit)

    def dependency_graph(self, path: str | None = None) -> DependencyGraph:
        with self._lock:
            return build_graph(self.state, self.workspace.relative(path) if path else None)

    def import_graph(self) -> dict[str, set[str]]:
        with self._lock:
            return build_graph(self.state, None, language="python").adjacency()

    def repo_map(self, budget_chars: int, focus: Iterable[str] = ()) -> str:
        """The repo map (analysis/repo_map.py), kept until a file changes: every run of a
        server asks for the same one."""
        key = (self.state.generation, budget_chars, tuple(focus))
        with self._lock:
            if self._map is None or self._map[0] != key:
                self._map = (key, repo_map.repo_map(self.state, budget_chars, key[2]))
            return self._map[1]

    def outline(self, path: str, max_depth: int = 3) -> dict[str, Any]:
        with self._lock:
            return symbols.outline(self.state, self.workspace.relative(path), max_depth)
