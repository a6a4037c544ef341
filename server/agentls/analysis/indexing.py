"""Building the workspace index and keeping it: the cold build (the cache reused, the rest
parsed on every core with their occurrence tables), the maps the first questions need,
the disk cache, refresh from disk, project membership (tsconfig), and how questions
treat memory (the cyclic GC held off while they run, what they unpacked frozen after).
A mixin of WorkspaceIndex, which owns the state. Must not know: LSP, tools, the agent.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agentls.analysis import cache, model
from agentls.analysis.build import gc_paused, index_files
from agentls.analysis.model import FileIndex
from agentls.analysis.projects import Projects
from agentls.analysis.tables import CONFIG_FILES, IndexTables
from agentls.workspace import FileWalker


class IndexBuilding(IndexTables):
    walker: FileWalker
    cache_dir: Path | None
    jobs: int
    progress: Callable[[int, int], None] | None
    write_cache: bool
    occurrences: bool
    built: bool
    _lock: threading.RLock
    _projects: Projects | None
    _unpacks_frozen: int

    def _invalidate_all(self) -> None:
        raise NotImplementedError

    def _invalidate(self, rel: str, structural: bool) -> None:
        raise NotImplementedError

    def _remove(self, rel: str) -> None:
        raise NotImplementedError

    def _warm(self) -> None:
        raise NotImplementedError

    @property
    def projects(self) -> Projects:
        """Which TS/JS files the tsconfig/jsconfig files take (read once per set of configs)."""
        if self._projects is None:
            self._projects = Projects(self.configs, self._read_text)
        return self._projects

    # --- building ------------------------------------------------------------------
    def build(self, save: bool = True) -> dict[str, Any]:
        """Index the workspace: reuse the cache for unchanged files, parse the rest. With
        `save` False the cache is left to the caller (`save_cache`, e.g. once the first
        answers are out); `stats["parsed"]` says whether there is anything new to save."""
        with gc_paused():  # the collections the cache load set off cost 0.09 s of a warm start
            return self._build(save)

    def _build(self, save: bool) -> dict[str, Any]:
        t0 = time.perf_counter()
        paths: list[str] = []
        configs: list[str] = []
        for rel in self.walker.walk():
            (configs if rel.endswith(CONFIG_FILES) else paths).append(rel)
        self.configs = configs
        self._projects = None
        outside = self.projects.out_of_project  # tsconfig include/exclude/outDir
        paths = [p for p in paths if not outside(p)]
        cached = cache.load(self.cache_dir, self.root) if self.cache_dir else {}
        fresh: dict[str, FileIndex] = {}
        todo: list[str] = []
        for rel in paths:
            old = cached.get(rel)
            if old is not None:
                try:
                    st = os.stat(self.root / rel)
                except OSError:
                    continue
                if st.st_mtime_ns == old.mtime_ns and st.st_size == old.size:
                    fresh[rel] = old
                    continue
            todo.append(rel)
        open_docs = set(self.workspace.open_paths())
        for fi in index_files(str(self.root), [p for p in todo if p not in open_docs], self.jobs, self.progress, occurrences=self.occurrences):
            fresh[fi.path] = fi
        with self._lock:
            self.files = fresh
            self._invalidate_all()
            for rel in open_docs:
                self._update(rel, None, None)
            self._warm()
            self.built = True
        gc.freeze()  # the index is long-lived: keep the cyclic GC from rescanning it
        if save and self.cache_dir and todo and self.write_cache:
            cache.save(self.cache_dir, self.root, self.files)
        return {
            "files": len(self.files),
            "parsed": len(todo),
            "cached": len(paths) - len(todo),
            "seconds": round(time.perf_counter() - t0, 3),
        }

    def fill_occurrences(self) -> int:
        """Fill every missing occurrence table on all cores (the server does this in the
        background after the first build, so reference searches never parse). Returns how
        many files were filled; entries that changed meanwhile are left to the lazy path."""
        with self._lock:
            todo = [p for p, fi in self.files.items() if not fi.has_occurrences and fi.mtime_ns >= 0]
        filled = 0
        for fresh in index_files(str(self.root), todo, self.jobs, None, occurrences=True):
            with self._lock:
                cur = self.files.get(fresh.path)
                if cur is not None and not cur.has_occurrences and (cur.size, cur.mtime_ns) == (fresh.size, fresh.mtime_ns):
                    self.files[fresh.path] = fresh
                    self._invalidate(fresh.path, False)
                    filled += 1
        if filled and self.cache_dir and self.write_cache:
            self.save_cache()
        gc.freeze()
        return filled

    def save_cache(self) -> None:
        if self.cache_dir and self.write_cache:
            with self._lock:
                snapshot = dict(self.files)
            cache.save(self.cache_dir, self.root, snapshot)

    def refresh(self) -> list[str]:
        """Pick up changes made on disk outside the editor; return the changed paths."""
        changed: list[str] = []
        seen = set()
        outside = self.projects.out_of_project
        for rel in self.walker.walk():
            if rel.endswith(CONFIG_FILES) or outside(rel):
                continue
            seen.add(rel)
            if self.workspace.document(rel) is not None:
                continue
            fi = self.files.get(rel)
            try:
                st = os.stat(self.root / rel)
            except OSError:
                continue
            if fi is None or fi.mtime_ns != st.st_mtime_ns or fi.size != st.st_size:
                with self._lock:
                    self._update(rel, None, None)
                changed.append(rel)
        for rel in [r for r in self.files if r not in seen and self.workspace.document(r) is None]:
            with self._lock:
                self._remove(rel)
            changed.append(rel)
        return changed

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
