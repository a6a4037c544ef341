"""Building the index's state and keeping it current: the cold build (the cache reused,
the rest parsed on every core with their occurrence tables), one file re-indexed after an
edit (spliced when the edit stays inside a function, else parsed again, incrementally for
an open document), a file removed, refresh from disk, the disk cache, and which TS/JS
files the tsconfig projects take.

The `Indexer` is the one writer of `IndexState` (state.py): it holds the state and the
index's lock, which it takes around each change it makes outside a caller's lock (the
swap at the end of a build, each file of a refresh). Must not know: the questions, LSP,
tools, the agent.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentls.analysis import cache
from agentls.analysis.build import gc_paused, index_files
from agentls.analysis.grammar import apply_edits, language_for, parse_file, splice_edit
from agentls.analysis.model import FileIndex
from agentls.analysis.projects import Projects
from agentls.analysis.state import CONFIG_FILES, IndexState
from agentls.workspace import FileWalker
from agentls.workspace.documents import MAX_FILE_BYTES, ByteEdit

Progress = Callable[[int, int], None]


class Indexer:
    def __init__(
        self,
        state: IndexState,
        lock: threading.RLock,
        walker: FileWalker,
        *,
        cache_dir: Path | None,
        jobs: int,
        progress: Progress | None,
        write_cache: bool,
        occurrences: bool,
    ) -> None:
        self.state = state
        self.lock = lock
        self.walker = walker
        self.cache_dir = cache_dir
        self.jobs = jobs
        self.progress = progress
        self.write_cache = write_cache  # False: read the cache, never write it
        # True: the build fills every occurrence table in the same parse, so a reference
        # search never parses and nothing is left to do once the build ends; False: they
        # are filled per file on first use (or by fill_occurrences)
        self.occurrences = occurrences
        self.built = False
        self._projects: Projects | None = None

    @property
    def projects(self) -> Projects:
        """Which TS/JS files the tsconfig/jsconfig files take (read once per set of configs)."""
        if self._projects is None:
            self._projects = Projects(self.state.configs, self.state.read_text)
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
        state = self.state
        paths: list[str] = []
        configs: list[str] = []
        for rel in self.walker.walk():
            (configs if rel.endswith(CONFIG_FILES) else paths).append(rel)
        state.configs = configs
        self._projects = None
        outside = self.projects.out_of_project  # tsconfig include/exclude/outDir
        paths = [p for p in paths if not outside(p)]
        cached = cache.load(self.cache_dir, state.root) if self.cache_dir else {}
        fresh: dict[str, FileIndex] = {}
        todo: list[str] = []
        for rel in paths:
            old = cached.get(rel)
            if old is not None:
                try:
                    st = os.stat(state.root / rel)
                except OSError:
                    continue
                if st.st_mtime_ns == old.mtime_ns and st.st_size == old.size:
                    fresh[rel] = old
                    continue
            todo.append(rel)
        open_docs = set(state.workspace.open_paths())
        for fi in index_files(str(state.root), [p for p in todo if p not in open_docs], self.jobs, self.progress, occurrences=self.occurrences):
            fresh[fi.path] = fi
        with self.lock:
            state.files = fresh
            state.forget_all()
            for rel in open_docs:
                self.update(rel, None, None)
            state.warm()
            self.built = True
        gc.freeze()  # the index is long-lived: keep the cyclic GC from rescanning it
        if save and self.cache_dir and todo and self.write_cache:
            cache.save(self.cache_dir, state.root, state.files)
        return {
            "files": len(state.files),
            "parsed": len(todo),
            "cached": len(paths) - len(todo),
            "seconds": round(time.perf_counter() - t0, 3),
        }

    def fill_occurrences(self) -> int:
        """Fill every missing occurrence table on all cores (the server does this in the
        background after the first build, so reference searches never parse). Returns how
        many files were filled; entries that changed meanwhile are left to the lazy path."""
        state = self.state
        with self.lock:
            todo = [p for p, fi in state.files.items() if not fi.has_occurrences and fi.mtime_ns >= 0]
        filled = 0
        for fresh in index_files(str(state.root), todo, self.jobs, None, occurrences=True):
            with self.lock:
                cur = state.files.get(fresh.path)
                if cur is not None and not cur.has_occurrences and (cur.size, cur.mtime_ns) == (fresh.size, fresh.mtime_ns):
                    state.files[fresh.path] = fresh
                    state.forget(fresh.path, False)
                    filled += 1
        if filled and self.cache_dir and self.write_cache:
            self.save_cache()
        gc.freeze()
        return filled

    def save_cache(self) -> None:
        if self.cache_dir and self.write_cache:
            with self.lock:
                snapshot = dict(self.state.files)
            cache.save(self.cache_dir, self.state.root, snapshot)

    def refresh(self) -> list[str]:
        """Pick up changes made on disk outside the editor; return the changed paths."""
        state = self.state
        changed: list[str] = []
        seen = set()
        outside = self.projects.out_of_project
        # the walk yields real relative paths (it skips symlinks), as open documents are
        # keyed: a set lookup, not a confinement (realpath) per file
        opened = set(state.workspace.open_paths())
        for rel in self.walker.walk():
            if rel.endswith(CONFIG_FILES) or outside(rel):
                continue
            seen.add(rel)
            if rel in opened:
                continue
            fi = state.files.get(rel)
            try:
                st = os.stat(state.root / rel)
            except OSError:
                continue
            if fi is None or fi.mtime_ns != st.st_mtime_ns or fi.size != st.st_size:
                with self.lock:
                    self.update(rel, None, None)
                changed.append(rel)
        for rel in [r for r in state.files if r not in seen and r not in opened]:
            with self.lock:
                self.remove(rel)
            changed.append(rel)
        return changed

    # --- one file (the caller holds the lock) ------------------------------------------
    def update(self, rel: str, data: bytes | None, edits: list[ByteEdit] | None) -> FileIndex | None:
        """Re-index one file from `data` (default: buffer or disk). With `edits` and a
        kept tree (an open document), re-parse incrementally, and splice the edit when it
        stays inside one function."""
        state = self.state
        state.generation += 1
        if rel.endswith(CONFIG_FILES):
            if rel not in state.configs:
                state.configs.append(rel)
            state.forget_modules()
            self._projects = None
            return None
        if language_for(rel) is None:
            return None
        if rel not in state.files and state.workspace.document(rel) is None and self.projects.out_of_project(rel):
            return None  # build output or a file the project leaves out, not opened in the editor
        if data is None:
            data = state.workspace.read_bytes(rel)
        if data is None or len(data) > MAX_FILE_BYTES or b"\x00" in data[:8192]:
            self.remove(rel)
            return None
        old_tree = state.trees.get(rel) if edits else None
        is_buffer = state.workspace.document(rel) is not None
        mtime = -1 if is_buffer else state.disk_mtime(rel)  # a buffer: never trusted by the cache
        previous = state.files.get(rel)
        if old_tree is not None and edits and previous is not None:
            apply_edits(old_tree, edits)
            spliced = splice_edit(rel, data, old_tree, previous, edits, mtime)
            if spliced is not None:
                fi, tree = spliced
                state.trees[rel] = tree
                state.files[rel] = fi
                state.forget(rel, False)
                return fi
        result = parse_file(rel, data, mtime, old_tree)
        if result is None:
            return None
        fi, tree = result
        if is_buffer:
            state.trees[rel] = tree
        structural = rel not in state.files
        state.files[rel] = fi
        state.forget(rel, structural)
        return fi

    def remove(self, rel: str) -> None:
        state = self.state
        state.generation += 1
        state.trees.pop(rel, None)
        if state.files.pop(rel, None) is not None:
            state.forget(rel, True)

    def close(self, rel: str) -> None:
        """The editor closed a document: drop its tree and re-read it from disk."""
        self.state.trees.pop(rel, None)
        self.update(rel, None, None)
