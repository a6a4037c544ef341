"""Answers to the questions editors and agents ask: definition, references, hover,
symbols, outline. Each resolves through `Resolver` and, where resolution fails, falls
back to ranked name matches — and says which it was.
Must not know: LSP, tools; positions in and out are (line, UTF-16 character).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from agentls.analysis import overloads
from agentls.analysis.docs import detail_of, doc_of
from agentls.analysis.model import CLASS, HoverInfo, Location, Resolution, is_member
from agentls.analysis.resolve import BUILTINS, Key

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex

def _loc(ix: WorkspaceIndex, path: str, start: int, end: int, name: str = "", kind: str = "", container: str = "") -> Location:
    li = ix.line_index(path)
    if li is None:
        return Location(path, (0, 0), (0, 0), name, kind, container)
    return Location(path, li.position(start), li.position(end), name, kind, container)


def _sym_loc(ix: WorkspaceIndex, path: str, i: int) -> Location:
    fi = ix.files[path]
    sym = fi.symbols[i]
    container = fi.symbols[sym.parent].name if sym.parent >= 0 else ""
    return _loc(ix, path, sym.sel_start, sym.sel_end, sym.name, sym.kind, container)


def _offset(ix: WorkspaceIndex, path: str, line: int, character: int) -> int | None:
    li = ix.line_index(path)
    return None if li is None else li.offset(line, character)


def key_at(ix: WorkspaceIndex, path: str, line: int, character: int) -> tuple[Key | None, str, int]:
    """The binding under the cursor, the name there, and the occurrence index (-1: none)."""
    offset = _offset(ix, path, line, character)
    if offset is None:
        return None, "", -1
    table = ix.ensure_occurrences(path)
    occ = ix.resolver.occurrence_at(table, offset)
    if occ < 0:
        return None, "", -1
    return ix.resolver.resolve_occurrence(path, occ), table.text(occ), occ


#: Name-matched guesses offered when resolution fails: more helps recall, fewer precision
#: (measured in tests/bench/bench_accuracy.py: 3 keeps both above the targets).
FALLBACK_LIMIT = 3
VARIABLE_KINDS = frozenset({"variable", "constant", "field", "attribute", "property"})


def key_locations(ix: WorkspaceIndex, key: Key, call_args: int | None = None) -> list[Location]:
    """Where a binding is declared. A variable assigned in several places answers with
    every assignment (as pyright and jedi do); a function or class with its first
    declaration (overload signatures come first); a member declared in the class body
    wins over `self.x = …` assignments."""
    if key.external:
        return []
    if key.scope == -1:
        return [Location(key.path, (0, 0), (0, 0), posixpath.basename(key.path), "module")]
    fi = ix.files[key.path]
    syms = [i for i in ix.bindings(key.path).get((key.scope, key.name), []) if fi.symbols[i].kind != "import"]
    if not syms:
        syms = ix.bindings(key.path).get((key.scope, key.name), [])
    if not syms:
        return []
    kinds = {fi.symbols[i].kind for i in syms}
    if kinds <= VARIABLE_KINDS | {"parameter"}:  # a parameter assigned again: every assignment too
        declared = [i for i in syms if fi.symbols[i].kind != "attribute"]
        if not declared or fi.language == "python":
            return [_sym_loc(ix, key.path, i) for i in syms]
        return [_sym_loc(ix, key.path, i) for i in declared]
    ordered = sorted(syms, key=lambda i: (fi.symbols[i].kind in VARIABLE_KINDS or fi.symbols[i].kind == "parameter", fi.symbols[i].sel_start))
    functions = [i for i in ordered if fi.symbols[i].kind in ("function", "method")]
    if call_args is not None and len(functions) > 1:  # overloads: the first that fits the call
        li = ix.line_index(key.path)
        data = li.data if li else b""
        texts = [data[fi.symbols[i].start : fi.symbols[i].end] for i in functions]
        k = overloads.choose(texts, key.name.encode("utf-8"), call_args)
        if k is not None:
            return [_sym_loc(ix, key.path, functions[k])]
    return [_sym_loc(ix, key.path, ordered[0])]


def _rank_fallback(ix: WorkspaceIndex, name: str, path: str | None, member: bool, limit: int) -> list[Location]:
    cands = ix.defs_by_name().get(name, [])
    imported: set[str] = set()
    if path is not None and path in ix.files:
        for imp in ix.files[path].imports:
            target = ix.resolver._module_file(path, imp.module)
            if target:
                imported.add(target)
    folder = posixpath.dirname(path) if path else None

    def score(item: tuple[str, int]) -> tuple[int, int, str]:
        p, i = item
        fi = ix.files[p]
        in_class = fi.scopes[fi.symbols[i].scope].kind == CLASS
        s = 0
        if p == path:
            s -= 8
        if p in imported:
            s -= 4
        if folder is not None and posixpath.dirname(p) == folder:
            s -= 2
        if member == in_class:
            s -= 3
        if path is not None and ix.module_system(p) != ix.module_system(path):
            s += 20
        return s, fi.symbols[i].sel_start, p

    return [_sym_loc(ix, p, i) for p, i in sorted(cands, key=score)[:limit]]


def definition(ix: WorkspaceIndex, path: str, line: int, character: int) -> Resolution:
    key, name, occ = key_at(ix, path, line, character)
    if occ < 0:
        return Resolution([], "none")
    if key is not None and key.external:
        where = key.path if key.path == BUILTINS else ".".join(p for p in (key.path, key.name) if p)
        return Resolution([], "none", name, f"defined outside the workspace: {where}")
    if key is not None:
        table = ix.ensure_occurrences(path)
        li = ix.line_index(path)
        end = table.start[occ] + len(name.encode("utf-8"))
        locs = key_locations(ix, key, overloads.call_arguments(li.data, end) if li else None)
        if locs:
            return Resolution(locs, "resolved", name)
    member = is_member(ix.ensure_occurrences(path).recv[occ])
    locs = _rank_fallback(ix, name, path, member, FALLBACK_LIMIT)
    return Resolution(locs, "fallback" if locs else "none", name, "resolved by name only")


def _class_members(ix: WorkspaceIndex, name: str) -> int:
    return sum(1 for p, i in ix.defs_by_name().get(name, []) if ix.files[p].scopes[ix.files[p].symbols[i].scope].kind == CLASS)


def _unique_member(ix: WorkspaceIndex, name: str) -> Key | None:
    """The one class member of that name in the workspace, if there is exactly one."""
    found = [(p, i) for p, i in ix.defs_by_name().get(name, []) if ix.files[p].scopes[ix.files[p].symbols[i].scope].kind == CLASS]
    if len(found) != 1:
        return None
    p, i = found[0]
    return Key(p, ix.files[p].symbols[i].scope, name)


def _reference_sites(ix: WorkspaceIndex, key: Key, name: str) -> list[tuple[str, int]]:
    """(path, occurrence) of every use of `key`, aliases included."""
    out: list[tuple[str, int]] = []
    unique_member = key.scope >= 0 and ix.files[key.path].scopes[key.scope].kind == CLASS and _class_members(ix, name) == 1
    for path in list(ix.files):
        if name not in ix.words(path):
            continue
        table = ix.ensure_occurrences(path)
        names = {name}
        for imp in ix.files[path].imports:
            if imp.name == name and imp.alias and imp.alias != name:
                names.add(imp.alias)
        memo: dict[Any, Key | None] = {}
        for n in names:
            for occ in ix.occurrences_of(path, n):
                got = ix.resolver.resolve_occurrence(path, occ, memo)
                if got == key or (got is None and unique_member and n == name and is_member(table.recv[occ]) and not ix.resolver.unknowable(path, occ)):
                    out.append((path, occ))
    return out


def references(ix: WorkspaceIndex, path: str, line: int, character: int, include_declaration: bool) -> Resolution:
    key, name, occ = key_at(ix, path, line, character)
    if occ < 0:
        return Resolution([], "none")
    if key is None and is_member(ix.ensure_occurrences(path).recv[occ]) and not ix.resolver.unknowable(path, occ):
        key = _unique_member(ix, name)  # `obj.attr` on an unknown obj: the only `attr` there is
    if key is None:
        return _unresolved_references(ix, path, occ, name)
    decl_sites: set[tuple[str, int]] = set()
    if key.scope >= 0:
        fi = ix.files[key.path]
        for i in ix.bindings(key.path).get((key.scope, key.name), []):
            decl_sites.add((key.path, fi.symbols[i].sel_start))
    locs: list[Location] = []
    for p, o in _reference_sites(ix, key, key.name or name):
        table = ix.ensure_occurrences(p)
        start = table.start[o]
        if not include_declaration and (p, start) in decl_sites:
            continue
        n = table.text(o)
        locs.append(_loc(ix, p, start, start + len(n.encode("utf-8")), n))
    locs.sort(key=lambda loc: (loc.path, loc.start))
    return Resolution(locs, "resolved", name)


def _unresolved_references(ix: WorkspaceIndex, path: str, occ: int, name: str) -> Resolution:
    """References of a use that does not resolve: the uses of the same name in the same
    file that do not resolve either, members with members and plain names with plain names.
    Every occurrence of the name in the workspace would be mostly noise."""
    table = ix.ensure_occurrences(path)
    member = is_member(table.recv[occ])
    memo: dict[Any, Key | None] = {}
    locs = []
    for o in ix.occurrences_of(path, name):
        if is_member(table.recv[o]) == member and ix.resolver.resolve_occurrence(path, o, memo) is None:
            start = table.start[o]
            locs.append(_loc(ix, path, start, start + len(name.encode("utf-8")), name))
    return Resolution(locs, "fallback", name, "unresolved: same-name uses in this file")


def references_by_name(ix: WorkspaceIndex, name: str, path: str | None, limit: int) -> Resolution:
    locs: list[Location] = []
    for p in list(ix.files):
        if name in ix.words(p):
            table = ix.ensure_occurrences(p)
            for o in ix.occurrences_of(p, name):
                start = table.start[o]
                locs.append(_loc(ix, p, start, start + len(name.encode("utf-8")), name))
                if len(locs) >= limit:
                    break
    locs.sort(key=lambda loc: (loc.path != path, loc.path, loc.start))
    return Resolution(locs[:limit], "fallback" if locs else "none", name, "every occurrence of the name")


def find_definitions(ix: WorkspaceIndex, name: str, path: str | None, limit: int) -> Resolution:
    short = name.rsplit(".", 1)[-1]
    locs = _rank_fallback(ix, short, path, False, limit)
    if "." in name:
        container = name.rsplit(".", 1)[0].rsplit(".", 1)[-1]
        exact = [loc for loc in locs if loc.container == container]
        locs = exact or locs
    return Resolution(locs, "fallback" if locs else "none", name, "matched by name")


def hover(ix: WorkspaceIndex, path: str, line: int, character: int) -> HoverInfo | None:
    res = definition(ix, path, line, character)
    if not res.locations:
        return None
    loc = res.locations[0]
    if loc.kind == "module":
        return HoverInfo(loc.name, "module", f"module {loc.path}", "", loc, res.how)
    fi = ix.files[loc.path]
    li = ix.line_index(loc.path)
    off = li.offset(*loc.start) if li else None
    data = li.data if li else b""
    for sym in fi.symbols:
        if sym.sel_start == off:
            return HoverInfo(sym.name, sym.kind, detail_of(data, sym), doc_of(data, sym), loc, res.how)
    return None
