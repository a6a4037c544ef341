"""Answers to the questions editors and agents ask of one position or name: the binding
under the cursor (`key_at`), definition, hover, definitions by name. Each resolves through
the state's `Resolver` and, where resolution fails, falls back to ranked name matches —
and says which it was. Where a binding is declared is declarations.py's.
Must not know: LSP, tools; positions in and out are (line, UTF-16 character).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from agentls.analysis import declarations, overloads
from agentls.analysis.docs import detail_of, doc_of
from agentls.analysis.keys import BUILTINS, Key
from agentls.analysis.locations import offset_at, symbol_location
from agentls.analysis.model import CLASS, HoverInfo, Location, Resolution, is_member

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState


def key_at(state: ReadOnlyState, path: str, line: int, character: int) -> tuple[Key | None, str, int]:
    """The binding under the cursor, the name there, and the occurrence index (-1: none)."""
    offset = offset_at(state, path, line, character)
    if offset is None:
        return None, "", -1
    table = state.ensure_occurrences(path)
    occ = state.resolver.occurrence_at(table, offset)
    if occ < 0:
        return None, "", -1
    return state.resolver.resolve_occurrence(path, occ), table.text(occ), occ


#: Name-matched guesses offered when resolution fails: more helps recall, fewer precision
#: (measured in tests/bench/bench_accuracy.py: 3 keeps both above the targets for Python;
#: TypeScript says 2 in language.json `fallback_limit` — 3 cost pooled precision, 2 no recall).
FALLBACK_LIMIT = 3


def _rank_fallback(state: ReadOnlyState, name: str, path: str | None, member: bool, limit: int) -> list[Location]:
    cands = state.defs_by_name().get(name, [])
    imported: set[str] = set()
    if path is not None and path in state.files:
        for imp in state.files[path].imports:
            target = state.resolver.module_file(path, imp.module)
            if target:
                imported.add(target)
    folder = posixpath.dirname(path) if path else None

    def score(item: tuple[str, int]) -> tuple[int, int, str]:
        p, i = item
        fi = state.files[p]
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
        if path is not None and state.module_system(p) != state.module_system(path):
            s += 20
        return s, fi.symbols[i].sel_start, p

    return [symbol_location(state, p, i) for p, i in sorted(cands, key=score)[:limit]]


def definition(state: ReadOnlyState, path: str, line: int, character: int) -> Resolution:
    key, name, occ = key_at(state, path, line, character)
    if occ < 0:
        return Resolution([], "none")
    if key is not None and key.external:
        where = key.path if key.path == BUILTINS else ".".join(p for p in (key.path, key.name) if p)
        return Resolution([], "none", name, f"defined outside the workspace: {where}")
    if key is not None:
        table = state.ensure_occurrences(path)
        li = state.line_index(path)
        end = table.start[occ] + len(name.encode("utf-8"))
        call_args = overloads.call_arguments(li.data, end) if li else None
        locs = declarations.overloaded(state, key, path, table.start[occ], call_args) or declarations.key_locations(state, key, call_args)
        if locs:  # merged declarations, and the constructor `new Foo()` calls
            locs = declarations.extend(state, key, locs, path, table.start[occ], call_args)
            return Resolution(locs, "resolved", name)
    member = is_member(state.ensure_occurrences(path).recv[occ])
    spec = state.spec(path)
    limit = spec.options.get("fallback_limit", FALLBACK_LIMIT) if spec is not None else FALLBACK_LIMIT
    locs = _rank_fallback(state, name, path, member, limit)
    return Resolution(locs, "fallback" if locs else "none", name, "resolved by name only")


def find_definitions(state: ReadOnlyState, name: str, path: str | None, limit: int) -> Resolution:
    short = name.rsplit(".", 1)[-1]
    locs = _rank_fallback(state, short, path, False, limit)
    if "." in name:
        container = name.rsplit(".", 1)[0].rsplit(".", 1)[-1]
        exact = [loc for loc in locs if loc.container == container]
        locs = exact or locs
    return Resolution(locs, "fallback" if locs else "none", name, "matched by name")


def hover(state: ReadOnlyState, path: str, line: int, character: int) -> HoverInfo | None:
    res = definition(state, path, line, character)
    if not res.locations:
        return None
    loc = res.locations[0]
    if loc.kind == "module":
        return HoverInfo(loc.name, "module", f"module {loc.path}", "", loc, res.how)
    fi = state.files[loc.path]
    li = state.line_index(loc.path)
    off = li.offset(*loc.start) if li else None
    data = li.data if li else b""
    for sym in fi.symbols:
        if sym.sel_start == off:
            return HoverInfo(sym.name, sym.kind, detail_of(data, sym), doc_of(data, sym), loc, res.how)
    return None
