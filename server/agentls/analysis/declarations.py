"""Where a binding is declared, as definition answers it (`key_locations`): every
assignment of a variable (as pyright and jedi answer), the first declaration of a function
or class, or the overload whose arity fits the call (overloads.py). And beyond one
declaration, as the TypeScript language service answers: merged declarations (an
interface and a const, class, function, enum or namespace of the same name are one
symbol: every declaration answers), constructor calls (`new Foo()` answers the class and
the constructor it calls) and overloads at their declarations (language.json
`overload_signatures`). The words involved (`new`, `constructor`) come from language.json
(`new_keyword`, `constructor_name`). Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from agentls.analysis import overloads
from agentls.analysis.keys import Key
from agentls.analysis.locations import symbol_location
from agentls.analysis.model import Location

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState

TYPE_KINDS = frozenset({"interface", "type"})
VARIABLE_KINDS = frozenset({"variable", "constant", "field", "attribute", "property"})
FUNCTION_KINDS = frozenset({"function", "method"})
VALUE_KINDS = frozenset({"variable", "constant", "class", "function", "enum", "module"})


def key_locations(state: ReadOnlyState, key: Key, call_args: int | None = None) -> list[Location]:
    """Where a binding is declared. A variable assigned in several places answers with
    every assignment (as pyright and jedi do); a function or class with its first
    declaration (overload signatures come first); a member declared in the class body
    wins over `self.x = …` assignments."""
    if key.external:
        return []
    if key.scope == -1:
        return [Location(key.path, (0, 0), (0, 0), posixpath.basename(key.path), "module")]
    fi = state.files[key.path]
    syms = [i for i in state.bindings(key.path).get((key.scope, key.name), []) if fi.symbols[i].kind != "import"]
    if not syms:
        syms = state.bindings(key.path).get((key.scope, key.name), [])
    if not syms:
        return []
    kinds = {fi.symbols[i].kind for i in syms}
    if kinds <= VARIABLE_KINDS | {"parameter"}:  # a parameter assigned again: every assignment too
        declared = [i for i in syms if fi.symbols[i].kind != "attribute"]
        if not declared or fi.language == "python":
            return [symbol_location(state, key.path, i) for i in syms]
        return [symbol_location(state, key.path, i) for i in declared]
    ordered = sorted(syms, key=lambda i: (fi.symbols[i].kind in VARIABLE_KINDS or fi.symbols[i].kind == "parameter", fi.symbols[i].sel_start))
    functions = [i for i in ordered if fi.symbols[i].kind in ("function", "method")]
    if call_args is not None and len(functions) > 1:  # overloads: the first that fits the call
        li = state.line_index(key.path)
        data = li.data if li else b""
        texts = [data[fi.symbols[i].start : fi.symbols[i].end] for i in functions]
        k = overloads.choose(texts, key.name.encode("utf-8"), call_args)
        if k is not None:
            return [symbol_location(state, key.path, functions[k])]
    return [symbol_location(state, key.path, ordered[0])]


def merged(state: ReadOnlyState, key: Key) -> list[int]:
    """The first declaration of each side (type, value) when a name is declared as both."""
    if key.scope < 0:
        return []
    fi = state.files[key.path]
    syms = state.bindings(key.path).get((key.scope, key.name), [])
    types = [i for i in syms if fi.symbols[i].kind in TYPE_KINDS]
    values = [i for i in syms if fi.symbols[i].kind in VALUE_KINDS]
    if not types or not values:
        return []
    return sorted({types[0], values[0]}, key=lambda i: fi.symbols[i].sel_start)


def constructor(state: ReadOnlyState, path: str, start: int, key: Key) -> Key | None:
    """The constructor a `new Key(…)` at `start` calls, if the class declares one."""
    spec = state.spec(path)
    new = spec.options.get("new_keyword") if spec is not None else None
    ctor = spec.options.get("constructor_name") if spec is not None else None
    li = state.line_index(path)
    if not new or not ctor or li is None or not li.data[max(0, start - 64) : start].rstrip().endswith(new.encode()):
        return None
    value = state.resolver.value_of(key)
    if value is None or value.kind != "class":
        return None
    fi = state.files[value.path]
    scope = state.resolver.class_scope(fi, value.symbol)
    if scope >= 0 and (scope, ctor) in state.bindings(value.path):
        return Key(value.path, scope, ctor)
    return None


def overloaded(state: ReadOnlyState, key: Key, path: str, start: int, call_args: int | None) -> list[Location] | None:
    """Where an overloaded function is declared, as the TypeScript language service answers
    (language.json `overload_signatures`): at one of its declarations, the implementation
    (the declarations with a body, else the last); at a call, None (the caller picks the
    overload whose arity fits); anywhere else (an import, a function passed as a value),
    every declaration."""
    spec = state.spec(key.path)
    if spec is None or not spec.options.get("overload_signatures") or key.scope < 0:
        return None
    fi = state.files[key.path]
    syms = [i for i in state.bindings(key.path).get((key.scope, key.name), []) if fi.symbols[i].kind in FUNCTION_KINDS]
    if len(syms) < 2:
        return None
    if path == key.path and state.def_sites(path).get(start) in syms:
        chosen = [i for i in syms if fi.symbols[i].detail_end >= 0] or syms[-1:]
    elif call_args is not None:
        return None
    else:
        chosen = syms
    return [symbol_location(state, key.path, i) for i in sorted(chosen, key=lambda i: fi.symbols[i].sel_start)]


def extend(state: ReadOnlyState, key: Key, locs: list[Location], path: str, start: int, call_args: int | None) -> list[Location]:
    """`locs` (the key's own declaration) with the merged declarations and the constructor."""
    out = list(locs)
    for i in merged(state, key):
        loc = symbol_location(state, key.path, i)
        if loc not in out:
            out.append(loc)
    ctor = constructor(state, path, start, key)
    if ctor is not None:
        out += [loc for loc in key_locations(state, ctor, call_args) if loc not in out]
    return out
