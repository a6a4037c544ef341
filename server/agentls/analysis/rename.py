"""Rename: every place a binding is named, as byte ranges per file, from the same
references the editor's "find references" answers (shared by the `rename_symbol` tool and
the LSP rename).

Only a binding the index resolves is renamed: names defined outside the workspace, names
that resolve to nothing (the references would be guesses) and new names that are no
identifier, a keyword, or already bound in the same scope are refused with the reason.
Must not know: tools, LSP, the agent.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentls.analysis import answers, references

if TYPE_CHECKING:
    from agentls.analysis.keys import Key
    from agentls.analysis.readonly import ReadOnlyState

_JS_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")
_JS_RESERVED = frozenset(
    ["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected", "public", "await"]
)


Position = tuple[int, int]


class RenameRefused(Exception):
    """Why a rename cannot be made (a sentence for the user or the model)."""


@dataclass(slots=True)
class RenamePlan:
    old: str
    new: str
    #: file → sorted, non-overlapping byte ranges of the old name in the indexed text
    sites: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    #: file → the same places as ((line, UTF-16 character), (line, character)), same order
    ranges: dict[str, list[tuple[Position, Position]]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(r) for r in self.sites.values())


def valid_name(path: str, name: str) -> str | None:
    """Why `name` cannot be an identifier in `path`'s language, or None."""
    if path.endswith((".py", ".pyi")):
        if not name.isidentifier():
            return f"{name!r} is not a Python identifier"
        if keyword.iskeyword(name):
            return f"{name!r} is a Python keyword"
        return None
    if not _JS_IDENTIFIER.match(name):
        return f"{name!r} is not an identifier"
    if name in _JS_RESERVED:
        return f"{name!r} is a reserved word"
    return None


def _target(state: ReadOnlyState, path: str, line: int, character: int) -> tuple[Key, str, int]:
    """The binding named at the position, its name and occurrence, if it can be renamed."""
    key, name, occ = answers.key_at(state, path, line, character)
    if occ < 0:
        raise RenameRefused(f"no name at {path}:{line + 1}:{character + 1}")
    if key is None:
        raise RenameRefused(
            f"{name!r} at {path}:{line + 1} does not resolve to a definition in the workspace, "
            "so its uses cannot be found safely"
        )
    if key.external:
        raise RenameRefused(f"{name!r} is defined outside the workspace ({key.path})")
    if key.scope < 0:
        raise RenameRefused(f"{name!r} names a module; renaming files is not supported")
    return key, name, occ


def prepare_rename(state: ReadOnlyState, path: str, line: int, character: int) -> tuple[str, Position, Position]:
    """The name at the position and its range, if the binding it names can be renamed
    (LSP `prepareRename`); raises RenameRefused with the reason otherwise."""
    _key, name, occ = _target(state, path, line, character)
    table = state.ensure_occurrences(path)
    li = state.line_index(path)
    start = table.start[occ]
    if li is None:
        raise RenameRefused(f"{path} cannot be read")
    return name, li.position(start), li.position(start + len(name.encode("utf-8")))


def plan_rename(state: ReadOnlyState, path: str, line: int, character: int, new: str) -> RenamePlan:
    """The rename of the binding named at (line, UTF-16 character) of `path` to `new`
    (`path` relative and indexed; the caller holds the index's lock)."""
    key, name, _occ = _target(state, path, line, character)
    if (why := valid_name(path, new)) is not None:
        raise RenameRefused(why)
    if name == new:
        raise RenameRefused(f"the name is already {new!r}")
    if key.scope >= 0 and state.bindings(key.path).get((key.scope, new)):
        raise RenameRefused(f"{new!r} is already defined in the same scope in {key.path}")
    result = references.references(state, path, line, character, True)
    plan = RenamePlan(name, new)
    for loc in result.locations:
        li = state.line_index(loc.path)
        start = li.offset(*loc.start) if li is not None else None
        end = li.offset(*loc.end) if li is not None else None
        if start is None or end is None or li is None or li.data[start:end] != name.encode():
            continue  # an alias (`import x as y`) or a stale position: not this name
        plan.sites.setdefault(loc.path, []).append((start, end))
        plan.ranges.setdefault(loc.path, []).append((loc.start, loc.end))
    for rel, sites in plan.sites.items():
        sites.sort()
        plan.ranges[rel].sort()
    if not plan.sites:
        raise RenameRefused(f"no occurrence of {name!r} was found")
    return plan


def position_of(state: ReadOnlyState, path: str, symbol: str) -> tuple[int, int] | None:
    """Where `symbol` (a name, or `Class.method`) is best named in `path`: its definition
    there, else its first occurrence; (line, UTF-16 character), or None."""
    parts = [p for p in re.split(r"[.#:]+", symbol.strip().removesuffix("()")) if p]
    if not parts:
        return None
    name, container = parts[-1], parts[-2] if len(parts) > 1 else None
    fi, li = state.files[path], state.line_index(path)
    if li is None:
        return None
    for sym in fi.symbols:
        if sym.name != name or sym.kind == "import":
            continue
        parent = fi.symbols[sym.parent].name if sym.parent >= 0 else None
        if container is None or parent == container:
            return li.position(sym.sel_start)
    table = state.ensure_occurrences(path)
    for occ in state.occurrences_of(path, name):
        return li.position(table.start[occ])
    return None


def renamed(data: bytes, ranges: list[tuple[int, int]], new: str) -> bytes:
    """`data` with every range replaced by `new` (ranges sorted, not overlapping)."""
    out, last = [], 0
    for start, end in ranges:
        out += [data[last:start], new.encode("utf-8")]
        last = end
    out.append(data[last:])
    return b"".join(out)
