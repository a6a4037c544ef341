"""Find-references: the binding under the cursor, the files that can name it, and every
use there that resolves to it (aliases included).

A question is planned first (`plan`: the key, the candidate files — the file itself for a
local, else the files holding the word, from the workspace word map — and the
declaration sites), then answered file by file (`in_file`), so a caller can answer in
slices: the language server streams them as partial results and stays responsive (and
cancellable) between slices. `references` answers in one go.
Must not know: LSP, tools; positions out are (line, UTF-16 character).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentls.analysis.answers import key_at
from agentls.analysis.groups import Groups
from agentls.analysis.keys import Key
from agentls.analysis.locations import location
from agentls.analysis.model import BLOCK, CLASS, FUNCTION, Location, Resolution, is_member
from agentls.analysis.remembered import Uses

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState


@dataclass(slots=True)
class Plan:
    name: str
    key: Key | None = None
    keys: set[Key] = field(default_factory=set)  # the key, or its member group
    candidates: list[str] = field(default_factory=list)
    decl_sites: set[tuple[str, int]] = field(default_factory=set)
    include_declaration: bool = True
    unique_member: bool = False
    answer: Resolution | None = None  # answered already (nothing there, or unresolved)
    generation: int = -1
    cached: dict[str, Uses] | None = None  # the uses per file, from an earlier search
    found: dict[str, Uses] = field(default_factory=dict)  # the uses per file, as found


def plan(state: ReadOnlyState, path: str, line: int, character: int, include_declaration: bool) -> Plan:
    key, name, occ = key_at(state, path, line, character)
    if occ < 0:
        return Plan(name, answer=Resolution([], "none"))
    groups = Groups(state)
    if key is None and is_member(state.ensure_occurrences(path).recv[occ]) and not state.resolver.unknowable(path, occ):
        key = groups.sole_member(name)  # `obj.attr` on an unknown obj: the only `attr` there is
    if key is None:
        return Plan(name, answer=_unresolved(state, path, occ, name))
    out = Plan(name, key, groups.group(key), include_declaration=include_declaration)  # a member with the members it implements or overrides
    scope_kind = state.files[key.path].scopes[key.scope].kind if key.scope >= 0 and key.path in state.files else ""
    for k in out.keys:
        if k.scope >= 0 and k.path in state.files:
            fi = state.files[k.path]
            for i in state.bindings(k.path).get((k.scope, k.name), []):
                out.decl_sites.add((k.path, fi.symbols[i].sel_start))
    out.generation = state.generation
    out.cached = state.remembered.get(key, state.generation)
    if out.cached is not None:
        out.candidates = sorted(out.cached)
        return out
    wanted = key.name or name
    # the only class member of that name in the workspace: a member use whose receiver
    # does not resolve can only mean it
    out.unique_member = groups.owner(key) is not None and groups.sole_member(key.name) == key
    keyword = scope_kind == FUNCTION and _keyword_parameter(state, key)  # `f(x=1)` elsewhere
    if scope_kind in (FUNCTION, BLOCK) and not keyword:
        out.candidates = [key.path]  # a local: no other file can name it
    elif (key.scope in (0, -1) or keyword) and key.path in state.files:  # module level, the module, or a parameter its importers name
        reach = state.importers.candidates(state, key.path)
        if keyword:  # `f(x=1)` names f too: a file without f's name cannot name f's x
            callers = _callers(state, key)
            if callers is not None:
                reach = {f for f in reach if f == key.path or any(f in state.files_with_word(w) for w in callers)}
        out.candidates = sorted(f for f in state.files_with_word(wanted) if f in reach)
    else:
        out.candidates = sorted(state.files_with_word(wanted))
    return out


def _keyword_parameter(state: ReadOnlyState, key: Key) -> bool:
    """A parameter that calls in other files can name (`f(emoji=True)`, language.json
    `keyword_arguments`): not a local, unless it is the instance (`self`)."""
    spec = state.spec(key.path)
    if spec is None or not spec.options.get("keyword_arguments") or key.name in spec.self_names:
        return False
    fi = state.files[key.path]
    return any(fi.symbols[i].kind == "parameter" for i in state.bindings(key.path).get((key.scope, key.name), []))


#: Methods called by another name: `Foo(x=1)` runs `Foo.__init__`; an instance call
#: (`__call__`) names no function at all.
_CALLED_AS_CLASS = frozenset({"__init__", "__new__"})
_CALLED_WITHOUT_NAME = frozenset({"__call__"})


def _callers(state: ReadOnlyState, key: Key) -> set[str] | None:
    """The words a call passing the parameter `key` by keyword must contain (the
    function's name, or its class's for a constructor); none for a lambda's; None when
    the call may name nothing (`obj(x=1)` calling `__call__`)."""
    fi = state.files[key.path]
    owner = fi.scopes[key.scope].owner
    if owner < 0:
        return set()  # a lambda's: no name to call it by elsewhere
    function = fi.symbols[owner]
    if function.name in _CALLED_WITHOUT_NAME:
        return None
    if function.name in _CALLED_AS_CLASS:
        cls = fi.scopes[function.scope].owner
        return {fi.symbols[cls].name} if fi.scopes[function.scope].kind == CLASS and cls >= 0 else None
    return {function.name}


def _uses(state: ReadOnlyState, p: Plan, path: str) -> list[int]:
    """The occurrences in `path` that name the plan's key, in source order."""
    assert p.key is not None
    keys, name = p.keys, p.key.name or p.name
    table = state.ensure_occurrences(path)
    names = {name}
    for imp in state.files[path].imports:
        if imp.name == name and imp.alias and imp.alias != name:
            names.add(imp.alias)
    memo: dict[Any, Any] = {}
    found: list[int] = []
    for n in names:
        for occ in state.occurrences_of(path, n):
            got = state.resolver.resolve_occurrence(path, occ, memo, table)
            if got in keys or (got is None and p.unique_member and n == name and is_member(table.recv[occ]) and not state.resolver.unknowable(path, occ)):
                found.append(occ)
    found.sort()
    return found


def in_file(state: ReadOnlyState, p: Plan, path: str) -> list[Location]:
    """The plan's references in one file, in source order (remembered, when the whole
    search completes, for the next question on the same key: as byte offsets and names,
    so answering it again needs neither the file's tables nor its unpacked index)."""
    if path not in state.files or p.key is None:
        return []
    if p.cached is not None:
        starts, names = p.cached[path]
    else:
        table = state.ensure_occurrences(path)
        found = _uses(state, p, path)
        starts = array("I", (table.start[o] for o in found))
        texts = [table.text(o) for o in found]
        names = texts[0] if texts and texts.count(texts[0]) == len(texts) else texts
        if found:
            p.found[path] = (starts, names)
        if path == p.candidates[-1] and state.generation == p.generation:
            state.remembered.put(p.key, p.generation, p.found)
    position = state.positions(path)
    locs: list[Location] = []
    for k, start in enumerate(starts):
        if not p.include_declaration and (path, start) in p.decl_sites:
            continue
        n = names if isinstance(names, str) else names[k]
        locs.append(Location(path, position(start), position(start + len(n.encode("utf-8"))), n))
    return locs


def references(state: ReadOnlyState, path: str, line: int, character: int, include_declaration: bool) -> Resolution:
    p = plan(state, path, line, character, include_declaration)
    if p.answer is not None:
        return p.answer
    locs = [loc for candidate in p.candidates for loc in in_file(state, p, candidate)]
    return Resolution(locs, "resolved", p.name)


class ContentModified(RuntimeError):
    """The index changed while a streamed answer was being given (LSP: ContentModified)."""


def stream(
    state: ReadOnlyState, hold: Callable[[], AbstractContextManager[None]], path: str, line: int, character: int,
    include_declaration: bool, slice_s: float,
) -> Iterator[list[Location]]:
    """`references` in slices of about `slice_s` of work, each computed inside `hold()`
    (the index's lock, and its GC discipline for questions)."""
    with hold():
        rel = state.indexed(path)
        if rel is None:
            return
        p = plan(state, rel, line, character, include_declaration)
        generation = state.generation
    if p.answer is not None:
        if p.answer.locations:
            yield p.answer.locations
        return
    i = 0
    while i < len(p.candidates):
        with hold():
            if state.generation != generation:
                raise ContentModified("the workspace changed while references were searched")
            batch: list[Location] = []
            until = time.perf_counter() + slice_s
            while True:  # at least one file a slice
                batch += in_file(state, p, p.candidates[i])
                i += 1
                if i >= len(p.candidates) or time.perf_counter() >= until:
                    break
        if batch:
            yield batch


def _unresolved(state: ReadOnlyState, path: str, occ: int, name: str) -> Resolution:
    """References of a use that does not resolve: the uses of the same name in the same
    file that do not resolve either, members with members and plain names with plain names.
    Every occurrence of the name in the workspace would be mostly noise."""
    table = state.ensure_occurrences(path)
    member = is_member(table.recv[occ])
    memo: dict[Any, Any] = {}
    locs = []
    for o in state.occurrences_of(path, name):
        if is_member(table.recv[o]) == member and state.resolver.resolve_occurrence(path, o, memo) is None:
            start = table.start[o]
            locs.append(location(state, path, start, start + len(name.encode("utf-8")), name))
    return Resolution(locs, "fallback", name, "unresolved: same-name uses in this file")


def references_by_name(state: ReadOnlyState, name: str, path: str | None, limit: int) -> Resolution:
    locs: list[Location] = []
    for p in sorted(state.files_with_word(name)):
        if p in state.files:
            table = state.ensure_occurrences(p)
            for o in state.occurrences_of(p, name):
                start = table.start[o]
                locs.append(location(state, p, start, start + len(name.encode("utf-8")), name))
                if len(locs) >= limit:
                    break
    locs.sort(key=lambda loc: (loc.path != path, loc.path, loc.start))
    return Resolution(locs[:limit], "fallback" if locs else "none", name, "every occurrence of the name")
