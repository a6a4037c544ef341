"""Lookup tables the resolver and the answers use, derived per file on first use and
dropped when the file changes: bindings by (scope, name), definition sites, scope
starts, the occurrence table (filled lazily), word sets, module maps, line indexes.
A mixin of WorkspaceIndex (which owns the state these read).
Must not know: LSP, tools.
"""

from __future__ import annotations

import os
import re
from array import array
from collections import OrderedDict
from pathlib import Path
from typing import Any

from agentls.analysis.grammar import LanguageSpec, fill_occurrences, language_for
from agentls.analysis.model import FileIndex, Occurrences
from agentls.analysis.modules import EsModules, PythonModules
from agentls.workspace import LineIndex, Workspace

CONFIG_FILES = ("tsconfig.json", "jsconfig.json")
_WORD = re.compile(rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*")


class IndexTables:
    files: dict[str, FileIndex]
    workspace: Workspace
    root: Path
    configs: list[str]
    _tables: dict[str, dict[str, Any]]
    _trees: dict[str, Any]
    _py: PythonModules | None
    _es: EsModules | None
    _defs_by_name: dict[str, list[tuple[str, int]]] | None
    _lines: OrderedDict[str, LineIndex]

    def _update(self, rel: str, data: bytes | None, edits: Any) -> FileIndex | None:
        raise NotImplementedError

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
            self._es = EsModules([p for p in self.files if self.module_system(p) == "es"], self._read_text, self.configs)
        return self._es

    def _read_text(self, rel: str) -> str | None:
        try:
            return self.workspace.read_text(rel)
        except ValueError:
            return None

    def _table(self, path: str) -> dict[str, Any]:
        t = self._tables.get(path)
        if t is None:
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
        tree = self._trees.get(path)
        data = self.workspace.read_bytes(path)
        if data is None:
            fi.names, fi.occ_name, fi.occ_start, fi.occ_recv = [], array("I"), array("I"), array("i")
            return fi.table()
        if len(data) != fi.size or (fi.mtime_ns >= 0 and self._disk_mtime(path) != fi.mtime_ns):
            fresh = self._update(path, data, None)
            if fresh is None:
                raise KeyError(path)
            fi, tree = fresh, self._trees.get(path)
        fill_occurrences(fi, data, tree)
        return fi.table()

    def _disk_mtime(self, path: str) -> int:
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
        occ = self.ensure_occurrences(path)
        t = self._table(path)
        inv = t.get("inverted")
        if inv is None:
            inv = {}
            for i, n in enumerate(occ.name):
                inv.setdefault(n, []).append(i)
            t["inverted"] = inv
            t["name_ids"] = {n: i for i, n in enumerate(occ.names)}
        nid = t["name_ids"].get(name)
        return inv.get(nid, []) if nid is not None else []

    def name_lines(self, path: str, name: str) -> list[int]:
        """The 0-based lines where `name` occurs as a code name in `path` (not in strings or
        comments), one entry per line."""
        with self._lock:  # type: ignore[attr-defined]
            table, li = self.ensure_occurrences(path), self.line_index(path)
            if li is None:
                return []
            return sorted({li.line_of(table.start[o]) for o in self.occurrences_of(path, name)})

    def defs_by_name(self) -> dict[str, list[tuple[str, int]]]:
        """Module- and class-level definitions by name (for fallbacks and workspace symbols)."""
        if self._defs_by_name is None:
            out: dict[str, list[tuple[str, int]]] = {}
            for path, fi in self.files.items():
                for i, sym in enumerate(fi.symbols):
                    if sym.kind not in ("import", "parameter") and fi.scopes[sym.scope].kind in ("module", "class"):
                        out.setdefault(sym.name, []).append((path, i))
            self._defs_by_name = out
        return self._defs_by_name

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

