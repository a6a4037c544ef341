"""The workspace index: one FileIndex per analysed file, kept current, and the questions
the editor and the agent ask of it.

State lives here (files, module maps, per-file lookup tables, open-document trees);
answers are computed in `answers.py`, resolution in `resolve.py`. Thread-safe: every
public method takes the lock. Must not know: LSP, tools, the agent.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from agentls.analysis import answers, references, rename, repo_map, symbols, syntax
from agentls.analysis.grammar import (
    apply_edits,
    language_for,
    parse_file,
    splice_edit,
    suffixes,
)
from agentls.analysis.graph import DependencyGraph, build_graph
from agentls.analysis.importers import Importers
from agentls.analysis.indexing import IndexBuilding
from agentls.analysis.model import (
    FileIndex,
    HoverInfo,
    Location,
    Resolution,
    SymbolNode,
)
from agentls.analysis.modules import EsModules, PythonModules
from agentls.analysis.name_maps import NameMaps
from agentls.analysis.projects import Projects
from agentls.analysis.resolve import Resolver
from agentls.analysis.tables import CONFIG_FILES
from agentls.workspace import FileWalker, LineIndex, Workspace
from agentls.workspace.documents import MAX_FILE_BYTES, ByteEdit

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]


class WorkspaceIndex(IndexBuilding):
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
        self.jobs = jobs or (os.cpu_count() or 1)
        if cache_dir is False:
            self.cache_dir: Path | None = None
        elif cache_dir is None or cache_dir is True:
            self.cache_dir = self.root / ".agentls" / "index"
        else:
            self.cache_dir = Path(cache_dir)
        self.progress = progress
        self.write_cache = write_cache  # False: read the cache, never write it
        # True: the build fills every occurrence table in the same parse, so a reference
        # search never parses and nothing is left to do once the build ends; False: they
        # are filled per file on first use (or by fill_occurrences)
        self.occurrences = occurrences
        self.files: dict[str, FileIndex] = {}
        self.resolver = Resolver(self)
        self._lock = threading.RLock()
        self._trees: dict[str, Any] = {}
        self._tables: dict[str, dict[str, Any]] = {}
        self._py: PythonModules | None = None
        self._es: EsModules | None = None
        self.name_maps = NameMaps()
        self.generation = 0  # +1 whenever a file's content changes (or the whole index)
        self.remembered = references.Remembered()
        self._unpacks_frozen = 0
        self.importers = Importers()
        self._lines: OrderedDict[str, LineIndex] = OrderedDict()
        self.walker = FileWalker(self.root, suffixes=(*suffixes(), *CONFIG_FILES))
        self.configs: list[str] = []
        self._projects: Projects | None = None
        self.built = False

    def _warm(self) -> None:
        """What the first questions need, made by the build rather than by them: the word
        and definition maps (0.1 s on sympy), the module maps, the import map."""
        self.defs_by_name()
        _ = self.py_modules
        self.importers.refresh(self)

    def _invalidate_all(self) -> None:
        self._tables.clear()
        self._lines.clear()
        self._py = self._es = None
        self.name_maps.reset()
        self.importers.reset()
        self.generation += 1

    def _invalidate(self, rel: str, structural: bool) -> None:
        self._tables.pop(rel, None)
        self._lines.pop(rel, None)
        self.name_maps.touch(rel)
        self.importers.touch(rel)
        if structural:
            self._py = self._es = None

    # --- keeping current -------------------------------------------------------------
    def update_file(self, path: str, data: bytes | None = None, edits: list[ByteEdit] | None = None) -> FileIndex | None:
        """Re-index one file from `data` (default: buffer or disk). With `edits` and a
        kept tree (an open document), re-parse incrementally."""
        with self._lock:
            return self._update(self.workspace.relative(path), data, edits)

    def _update(self, rel: str, data: bytes | None, edits: list[ByteEdit] | None) -> FileIndex | None:
        self.generation += 1
        if rel.endswith(CONFIG_FILES):
            if rel not in self.configs:
                self.configs.append(rel)
            self._es = self._projects = None
            return None
        if language_for(rel) is None:
            return None
        if rel not in self.files and self.workspace.document(rel) is None and self.projects.out_of_project(rel):
            return None  # build output or a file the project leaves out, not opened in the editor
        if data is None:
            data = self.workspace.read_bytes(rel)
        if data is None or len(data) > MAX_FILE_BYTES or b"\x00" in data[:8192]:
            self._remove(rel)
            return None
        old_tree = self._trees.get(rel) if edits else None
        is_buffer = self.workspace.document(rel) is not None
        mtime = -1 if is_buffer else self._disk_mtime(rel)  # a buffer: never trusted by the cache
        previous = self.files.get(rel)
        if old_tree is not None and edits and previous is not None:
            apply_edits(old_tree, edits)
            spliced = splice_edit(rel, data, old_tree, previous, edits, mtime)
            if spliced is not None:
                fi, tree = spliced
                self._trees[rel] = tree
                self.files[rel] = fi
                self._invalidate(rel, False)
                return fi
        result = parse_file(rel, data, mtime, old_tree)
        if result is None:
            return None
        fi, tree = result
        if is_buffer:
            self._trees[rel] = tree
        structural = rel not in self.files
        self.files[rel] = fi
        self._invalidate(rel, structural)
        return fi

    def remove_file(self, path: str) -> None:
        with self._lock:
            self._remove(self.workspace.relative(path))

    def _remove(self, rel: str) -> None:
        self.generation += 1
        self._trees.pop(rel, None)
        if self.files.pop(rel, None) is not None:
            self._invalidate(rel, True)

    def close_file(self, path: str) -> None:
        """The editor closed a document: drop its tree and re-read it from disk."""
        with self._lock:
            rel = self.workspace.relative(path)
            self._trees.pop(rel, None)
            self._update(rel, None, None)

    # --- questions (see answers.py) ----------------------------------------------------
    def _rel(self, path: str) -> str | None:
        try:
            rel = self.workspace.relative(path)
        except ValueError:
            return None
        return rel if rel in self.files else None

    def definition(self, path: str, line: int, character: int) -> Resolution:
        with self._lock, self.question():
            rel = self._rel(path)
            return answers.definition(self, rel, line, character) if rel else Resolution([], "none")

    def references(self, path: str, line: int, character: int, include_declaration: bool = True) -> Resolution:
        with self._lock, self.question():
            rel = self._rel(path)
            return references.references(self, rel, line, character, include_declaration) if rel else Resolution([], "none")

    def references_stream(
        self, path: str, line: int, character: int, include_declaration: bool = True, slice_s: float = 0.004
    ) -> Iterator[list[Location]]:
        """The references of `references`, in slices of about `slice_s` of work each (files
        in path order, uses in source order). The lock is held per slice only, so other
        questions are answered between slices; raises references.ContentModified when a
        file changes before the last slice."""
        return references.stream(self, self._lock, path, line, character, include_declaration, slice_s)

    def find_definitions(self, name: str, path: str | None = None, limit: int = 50) -> Resolution:
        with self._lock:
            return answers.find_definitions(self, name, self._rel(path) if path else None, limit)

    def find_references_by_name(self, name: str, path: str | None = None, limit: int = 500) -> Resolution:
        with self._lock:
            return references.references_by_name(self, name, self._rel(path) if path else None, limit)

    def rename(self, path: str, line: int | None, character: int | None, new: str, symbol: str = "") -> rename.RenamePlan:
        """Every place the binding at the position (or, without one, `symbol` as named in
        `path`) is named, to become `new` (raises rename.RenameRefused with the reason)."""
        with self._lock:
            rel = self._rel(path)
            if rel is None:
                raise rename.RenameRefused(f"{path} is not indexed")
            if line is None or character is None:
                where = rename.position_of(self, rel, symbol)
                if where is None:
                    raise rename.RenameRefused(f"{path} neither defines nor uses {symbol!r}")
                line, character = where
            return rename.plan_rename(self, rel, line, character, new)

    def prepare_rename(self, path: str, line: int, character: int) -> tuple[str, tuple[int, int], tuple[int, int]]:
        """The name at the position and its range, if what it names can be renamed
        (raises rename.RenameRefused with the reason)."""
        with self._lock:
            rel = self._rel(path)
            if rel is None:
                raise rename.RenameRefused(f"{path} is not indexed")
            return rename.prepare_rename(self, rel, line, character)

    def syntax_errors(self, path: str, data: bytes) -> list[tuple[tuple[int, int], tuple[int, int], str]] | None:
        """An open document's syntax errors (syntax.error_regions) read from the tree kept
        for it, which must be the parse of `data`; None when no tree is kept."""
        with self._lock:
            rel = self._rel(path)
            tree = self._trees.get(rel) if rel else None
            return syntax.error_regions(rel, data, tree=tree) if rel and tree is not None else None

    def hover(self, path: str, line: int, character: int) -> HoverInfo | None:
        with self._lock:
            rel = self._rel(path)
            return answers.hover(self, rel, line, character) if rel else None

    def document_symbols(self, path: str) -> list[SymbolNode]:
        with self._lock:
            rel = self._rel(path)
            return symbols.document_symbols(self, rel) if rel else []

    def workspace_symbols(self, query: str, limit: int = 100) -> list[Location]:
        with self._lock:
            return symbols.workspace_symbols(self, query, limit)

    def dependency_graph(self, path: str | None = None) -> DependencyGraph:
        with self._lock:
            return build_graph(self, self.workspace.relative(path) if path else None)

    def import_graph(self) -> dict[str, set[str]]:
        with self._lock:
            return build_graph(self, None, language="python").adjacency()

    def repo_map(self, budget_chars: int, focus: Iterable[str] = ()) -> str:
        with self._lock:
            return repo_map.repo_map(self, budget_chars, focus)

    def outline(self, path: str, max_depth: int = 3) -> dict[str, Any]:
        with self._lock:
            return symbols.outline(self, self.workspace.relative(path), max_depth)
