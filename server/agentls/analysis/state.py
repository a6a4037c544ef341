"""The index's state: one FileIndex per analysed file, the trees kept for documents open in
the editor, and what is derived from them on first use and dropped when a file changes —
per-file lookup tables (bindings by (scope, name), definition sites, scope starts, import
spans, word sets, line indexes; at most TABLES_KEPT files' worth), the module maps, the
word and definition maps (name_maps.py), the import map (importers.py), the resolver
with its value cache (resolve.py), the searches remembered (remembered.py).

The questions (answers.py, references.py, symbols.py, ...) read it through
`ReadOnlyState` (readonly.py), which lists nothing that writes; only the index and the
indexer (indexing.py) import this module, and the indexer alone changes it — the files,
the trees, the configs, the generation —, under the index's lock, and says what changed
(`forget`, `forget_all`). A file changed on disk since it was indexed is re-indexed
through the `reindex` the index hands in.
Must not know: the lock, how the workspace is walked, built or cached, LSP, tools.
"""

from __future__ import annotations

import os
import re
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from agentls.analysis.grammar import LanguageSpec, fill_occurrences, language_for
from agentls.analysis.importers import Importers
from agentls.analysis.model import FileIndex, Occurrences
from agentls.analysis.modules import EsModules, PythonModules
from agentls.analysis.name_maps import NameMaps
from agentls.analysis.remembered import Remembered
from agentls.analysis.resolve import Resolver
from agentls.workspace import LineIndex, Workspace

CONFIG_FILES = ("tsconfig.json", "jsconfig.json")
#: Files whose lookup tables are kept (bindings, definition sites, scope starts...): all
#: of sympy's cost 49 MB; past this the oldest half is dropped and rebuilt on demand.
TABLES_KEPT = 800
_WORD = re.compile(rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*")

Reindex = Callable[[str, bytes], FileIndex | None]


class IndexState:
    def __init__(self, workspace: Workspace, reindex: Reindex) -> None:
        self.workspace = workspace
        self.root = workspace.root
        self.files: dict[str, FileIndex] = {}
        self.trees: dict[str, Any] = {}  # the open documents' parse trees, for re-parsing
        self.configs: list[str] = []  # tsconfig.json / jsconfig.json files
        self.generation = 0  # +1 whenever a file's content changes (or the whole index)
        self.name_maps = NameMaps()
        self.importers = Importers()
        self.remembered = Remembered()
        self.resolver = Resolver(self)
        self._reindex = reindex
        self._tables: dict[str, dict[str, Any]] = {}
        self._lines: OrderedDict[str, LineIndex] = OrderedDict()
        self._py: PythonModules | None = None
        self._es: EsModules | None = None

    # --- what changed (the indexer says) ----------------------------------------------
    def forget_all(self) -> None:
        """Every file may have changed: drop everything derived and start a generation."""
        self._tables.clear()
        self._lines.clear()
        self._py = self._es = None
        self.name_maps.reset()
        self.importers.reset()
        self.generation += 1

    def forget(self, rel: str, structural: bool) -> None:
        """`rel` changed, appeared or went away (`structural`: the module maps change)."""
        self._tables.pop(rel, None)
        self._lines.pop(rel, None)
        self.name_maps.touch(rel)
        self.importers.touch(rel)
        if structural:
            self._py = self._es = None

    def forget_modules(self) -> None:
        """A tsconfig/jsconfig changed: the ES module map is made again."""
        self._es = None

    def warm(self) -> None:
        """What the first questions need, made by the build rather than by them: the word
        and definition maps (0.1 s on sympy), the module maps, the import map."""
        self.defs_by_name()
        _ = self.py_modules
        self.importers.refresh(self)

    def indexed(self, path: str) -> str | None:
        """The workspace-relative path of `path` if the index has it, else None."""
        try:
            rel = self.workspace.relative(path)
        except ValueError:
            return None
        return rel if rel in self.files else None

    # --- lookups -----------------------------------------------------------------------
    def spec(self, path: str) -> LanguageSpec | None:
        return language_for(path)

    def module_system(self, path: str) -> str:
        spec = language_for(path)
        return spec.module_system if spec else ""

    @property
    def py_modules(self) -> PythonModules:
        if self._py is None:
            self._py = PythonModules(self.files, self.root.name)
        return self._py

    @property
    def es_modules(self) -> EsModules:
        if self._es is None:
            self._es = EsModules([p for p in self.files if self.module_system(p) == "es"], self.read_text, self.configs)
        return self._es

    def read_text(self, rel: str) -> str | None:
        try:
            return self.workspace.read_text(rel)
        except ValueError:
            return None

    def _table(self, path: str) -> dict[str, Any]:
        t = self._tables.get(path)
        if t is None:
            if len(self._tables) >= TABLES_KEPT:  # derived data: drop the oldest half
                for old in list(self._tables)[: TABLES_KEPT // 2]:
                    del self._tables[old]
            t = self._tables[path] = {}
        return t

    def bindings(self, path: str) -> dict[tuple[int, str], list[int]]:
        t = self._table(path)
        b = t.get("bindings")
        if b is None:
            b = {}
            for i, sym in enumerate(self.files[path].symbols):
                b.setdefault((sym.scope, sym.name), []).append(i)
            t["bindings"] = b
        return b

    def def_sites(self, path: str) -> dict[int, int]:
        t = self._table(path)
        d = t.get("sites")
        if d is None:
            d = t["sites"] = {sym.sel_start: i for i, sym in enumerate(self.files[path].symbols)}
        return d

    def import_spans(self, path: str) -> tuple[list[int], list[int]]:
        """The file's import records sorted by start: (starts, record indices), for finding
        the import statement an offset is in by bisection."""
        t = self._table(path)
        spans = t.get("import_spans")
        if spans is None:
            imports = self.files[path].imports
            order = sorted(range(len(imports)), key=lambda i: (imports[i].start, i))
            spans = t["import_spans"] = ([imports[i].start for i in order], order)
        return spans

    def scope_starts(self, path: str) -> list[int]:
        t = self._table(path)
        s = t.get("scope_starts")
        if s is None:
            s = t["scope_starts"] = [sc.start for sc in self.files[path].scopes]
        return s

    def ensure_occurrences(self, path: str) -> Occurrences:
        """The file's index with its occurrence table filled (parsed on first use).

        If the file changed on disk since it was indexed, it is re-indexed first, so
        offsets always agree with the symbols."""
        fi = self.files[path]
        if fi.has_occurrences:
            return fi.table()
        tree = self.trees.get(path)
        data = self.workspace.read_bytes(path)
        if data is None:
            fi.names, fi.occ_name, fi.occ_start, fi.occ_recv = [], array("I"), array("I"), array("i")
            return fi.table()
        if len(data) != fi.size or (fi.mtime_ns >= 0 and self.disk_mtime(path) != fi.mtime_ns):
            fresh = self._reindex(path, data)
            if fresh is None:
                raise KeyError(path)
            fi, tree = fresh, self.trees.get(path)
        fill_occurrences(fi, data, tree)
        return fi.table()

    def disk_mtime(self, path: str) -> int:
        try:
            return os.stat(self.root / path).st_mtime_ns
        except OSError:
            return -2

    def words(self, path: str) -> frozenset[str]:
        """Every identifier-like word of a file (a superset filter for reference search)."""
        fi = self.files[path]
        if fi.has_occurrences:
            return frozenset(fi.names or ())
        t = self._table(path)
        w = t.get("words")
        if w is None:
            data = self.workspace.read_bytes(path) or b""
            w = t["words"] = frozenset(m.decode("utf-8", "replace") for m in _WORD.findall(data))
        return w

    def occurrences_of(self, path: str, name: str) -> list[int]:
        """Indexes of the occurrences of `name` in the file, in source order. Found by a
        C-speed search of the name column's bytes for the name's id (4 bytes, aligned),
        so nothing per file is kept: an inverted table per file cost 76 MB on sympy."""
        occ = self.ensure_occurrences(path)
        try:
            nid = occ.names.index(name)
        except ValueError:
            return []
        column = occ.name
        raw = column.tobytes()
        pattern = array(column.typecode, (nid,)).tobytes()
        width = column.itemsize
        out: list[int] = []
        i = raw.find(pattern)
        while i >= 0:
            if i % width == 0:
                out.append(i // width)
                i = raw.find(pattern, i + width)
            else:
                i = raw.find(pattern, i + 1)
        return out

    def defs_by_name(self) -> dict[str, list[tuple[str, int]]]:
        """Module- and class-level definitions by name (for fallbacks and workspace symbols)."""
        return self.name_maps.definitions(self.files, self.words)

    def files_with_word(self, name: str) -> frozenset[str]:
        """The files whose code or text holds `name` as a word (a superset of the files
        that can refer to it). Do not modify the set."""
        return self.name_maps.files_with(self.files, self.words, name)

    def line_index(self, path: str) -> LineIndex | None:
        li = self._lines.get(path)
        if li is None:
            data = self.workspace.read_bytes(path)
            if data is None:
                return None
            li = LineIndex(data)
            self._lines[path] = li
            if len(self._lines) > 64:
                self._lines.popitem(last=False)
        else:
            self._lines.move_to_end(path)
        return li

    def positions(self, path: str) -> Callable[[int], tuple[int, int]]:
        """Byte offset → (line, UTF-16 character) in `path`, for converting many offsets:
        an all-ASCII indexed file answers from the line starts its index keeps (no read of
        the file: a 20k-location answer spans 1k files), any other through its LineIndex."""
        fi = self.files.get(path)
        if fi is None or fi.ascii_lines is None:
            li = self.line_index(path)
            return li.position if li is not None else lambda offset: (0, 0)
        starts, size = fi.ascii_lines, fi.size

        def position(offset: int) -> tuple[int, int]:
            offset = max(0, min(offset, size))
            line = bisect_right(starts, offset) - 1
            return line, offset - starts[line]

        return position
