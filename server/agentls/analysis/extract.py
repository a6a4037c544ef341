"""Turn query results into a FileIndex: scopes, symbols, imports, exports, occurrences.

Works on whatever node objects the grammar adapter hands over (it only reads
`start_byte`, `end_byte` and `type`); the capture names of grammars/README.md are the
schema. Must not know: tree-sitter's API beyond those attributes, resolution, LSP.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from agentls.analysis.hints import Hints
from agentls.analysis.imports import import_records
from agentls.analysis.model import (
    BLOCK,
    MODULE,
    FileIndex,
    Import,
    Scope,
    Symbol,
)
from agentls.analysis.occurrences import dotted, occurrences
from agentls.workspace.positions import ascii_line_starts

_SPACES = re.compile(r"\s+")

#: Definitions whose node is also a scope: their name binds outside it.
_SCOPED_KINDS = {"function": "function", "class": "class", "interface": "interface", "type": "type"}


def _text(data: bytes, node: Any) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _split_bases(text: str) -> tuple[str, ...]:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    out = []
    for p in parts:
        p = p.strip()
        if not p or "=" in p or p.startswith("*"):
            continue
        p = re.sub(r"<.*>$", "", p, flags=re.S).strip()  # TS generics: Base<T>
        d = dotted(p)
        if d:
            out.append(d)
    return tuple(out)


_ROLE_CACHE: dict[str, dict[int, tuple[str, str, str]]] = {}


def _roles(spec: Any) -> dict[int, tuple[str, str, str]]:
    """Pattern index → (role, kind, capture): what a tags.scm pattern means, learnt from
    the first match of that pattern (the role capture is never optional)."""
    return _ROLE_CACHE.setdefault(spec.name, {})


def _role_of(caps: dict[str, list[Any]]) -> tuple[str, str, str]:
    for key in caps:
        if key.startswith("definition."):
            return ("definition", key[11:], key)
    for key in caps:
        if key.startswith("scope."):
            return ("scope", key[6:], key)
    for role, keys in (
        ("import", ("import", "reexport")),
        ("export", ("export.name", "export.local")),
        ("exported", ("exported",)),
        ("doc", ("doc",)),
        ("bases", ("bases",)),
        ("hint", ("hint.target",)),
        ("global", ("global",)),
        ("nonlocal", ("nonlocal",)),
    ):
        if any(k in caps for k in keys):
            return (role, "", keys[0])
    return ("other", "", "")


class _Scopes:
    def __init__(self, size: int, raw: list[tuple[int, int, str]]) -> None:
        raw.sort(key=lambda s: (s[0], -s[1]))
        self.scopes: list[Scope] = [Scope(MODULE, 0, size, -1)]
        stack = [0]
        for start, end, kind in raw:
            while stack[-1] != 0 and self.scopes[stack[-1]].end <= start:
                stack.pop()
            self.scopes.append(Scope(kind, start, end, stack[-1]))
            stack.append(len(self.scopes) - 1)
        self.starts = [s.start for s in self.scopes]

    def innermost(self, offset: int, exclude_start: int = -1, exclude_end: int = -1) -> int:
        i = bisect_right(self.starts, offset) - 1
        while i > 0:
            s = self.scopes[i]
            if s.start <= offset < s.end and not (s.start == exclude_start and s.end == exclude_end):
                return i
            i = s.parent if s.start <= offset < s.end else i - 1
        return 0


def build(
    spec: Any,
    path: str,
    data: bytes,
    matches: list[tuple[int, dict[str, list[Any]]]],
    refs: dict[str, list[Any]] | None,
    errors: list[tuple[int, int, str]],
    mtime_ns: int,
    extra_scopes: list[tuple[int, int, str]] | None = None,
) -> FileIndex:
    """A FileIndex from query results. `extra_scopes` adds scopes that hold the matched
    region without being matched themselves (a re-extracted function's class, see splice.py)."""
    size = len(data)
    defs: list[tuple[str, Any, Any, dict[str, list[Any]]]] = []
    raw_scopes: list[tuple[int, int, str]] = []
    docs: dict[int, tuple[int, int]] = {}
    bases: dict[int, tuple[str, ...]] = {}
    hints = Hints(spec)
    import_caps: list[dict[str, list[Any]]] = []
    export_caps: list[dict[str, list[Any]]] = []
    exported_starts: set[int] = set()
    nonlocals: list[tuple[int, str]] = []
    roles = _roles(spec)
    for pattern, caps in matches:
        role = roles.get(pattern)
        if role is None:
            role = roles[pattern] = _role_of(caps)
        if role[0] == "definition":
            if "name" in caps:
                defs.append((role[1], caps[role[2]][0], caps["name"][0], caps))
        elif role[0] == "scope":
            node = caps[role[2]][0]
            raw_scopes.append((node.start_byte, node.end_byte, role[1]))
        elif role[0] == "import":
            import_caps.append(caps)
        elif role[0] == "export":
            export_caps.append(caps)
        elif role[0] == "exported":
            exported_starts.add(caps["exported"][0].start_byte)
        elif role[0] == "doc":
            owner = caps["doc.owner"][0].start_byte
            node = caps["doc"][-1]
            docs.setdefault(owner, (node.start_byte, node.end_byte))
        elif role[0] == "bases":
            owner = caps["bases.owner"][0].start_byte
            found: tuple[str, ...] = ()
            for node in caps["bases"]:
                found += _split_bases(_text(data, node))
            bases[owner] = bases.get(owner, ()) + found
        elif role[0] == "hint":
            hints.add(data, caps)
        elif role[0] in ("global", "nonlocal"):
            node = caps[role[0]][0]
            nonlocals.append((node.start_byte, role[0] + ":" + _text(data, node)))

    sc = _Scopes(size, raw_scopes + (extra_scopes or []))
    scopes = sc.scopes
    # `global x` binds x at module level; `nonlocal x` in the nearest enclosing function
    redirect: dict[tuple[int, str], int] = {}
    for start, tagged in nonlocals:
        how, _, name = tagged.partition(":")
        s = sc.innermost(start)
        target = 0
        if how == "nonlocal":
            target = scopes[s].parent
            while target > 0 and scopes[target].kind != "function":
                target = scopes[target].parent
        redirect[(s, name)] = max(target, 0)

    symbols: list[Symbol] = []
    seen: set[tuple[int, bool]] = set()
    owner_of_scope: dict[tuple[int, int], int] = {}
    self_names = spec.self_names
    for kind, node, name_node, caps in defs:
        sel = name_node.start_byte
        implicit = "member.implicit" in caps  # also a member of the enclosing class
        if (sel, implicit) in seen:
            continue
        start, end = node.start_byte, node.end_byte
        scoped = kind in _SCOPED_KINDS
        scope = sc.innermost(sel, start, end) if scoped else sc.innermost(sel)
        if kind == "attribute" or implicit:
            recv = caps.get("receiver")
            if not implicit and (not recv or _text(data, recv[0]) not in self_names):
                continue
            fn = scope
            while fn > 0 and scopes[fn].kind not in ("function",):
                fn = scopes[fn].parent
            cls = scopes[fn].parent if fn > 0 else -1
            while cls > 0 and scopes[cls].kind == BLOCK:
                cls = scopes[cls].parent
            if fn <= 0 or cls <= 0 or scopes[cls].kind != "class":
                continue
            scope = cls
        seen.add((sel, implicit))
        name = _text(data, name_node)
        if redirect:
            scope = redirect.get((scope, name), scope)
        if kind == "function" and scopes[scope].kind == "class":
            kind = "method"
        elif kind in ("variable", "constant") and scopes[scope].kind == "class":
            kind = "field"
        doc = docs.get(start)
        sym = Symbol(
            name=name,
            kind=kind,
            start=start,
            end=end,
            sel_start=sel,
            sel_end=name_node.end_byte,
            scope=scope,
            detail_end=caps["body"][0].start_byte if "body" in caps else -1,
            doc_start=doc[0] if doc else -1,
            doc_end=doc[1] if doc else -1,
            bases=bases.get(start, ()),
            value=hints.get(sel),
            exported=start in exported_starts,
        )
        if scoped:
            owner_of_scope[(start, end)] = len(symbols)
        for owned in caps.get("owns", ()):  # a body scope that belongs to this definition
            owner_of_scope[(owned.start_byte, owned.end_byte)] = len(symbols)
        symbols.append(sym)

    for scope_ in scopes:
        scope_.owner = owner_of_scope.get((scope_.start, scope_.end), -1)
    for sym in symbols:
        s = sym.scope
        while s > 0 and scopes[s].owner == -1:
            s = scopes[s].parent
        sym.parent = scopes[s].owner if s > 0 else -1

    imports, exports = import_records(data, import_caps, export_caps, sc.innermost, symbols, seen)
    symbols, imports = canonical(scopes, symbols, imports)
    names, occ_name, occ_start, occ_recv = occurrences(data, refs, spec) if refs is not None else (None, None, None, None)
    return FileIndex(
        path=path,
        language=spec.name,
        size=size,
        mtime_ns=mtime_ns,
        has_errors=bool(errors),
        scopes=scopes,
        symbols=symbols,
        imports=imports,
        exports=exports,
        names=names,
        occ_name=occ_name,
        occ_start=occ_start,
        occ_recv=occ_recv,
        errors=errors,
        ascii_lines=ascii_line_starts(data),
    )


def canonical(scopes: list[Scope], symbols: list[Symbol], imports: list[Import]) -> tuple[list[Symbol], list[Import]]:
    """Symbols in source order (the order bindings are searched in) and imports too, with
    every index between them (scope owner, parent, target, import symbol) kept right.
    A full build and an incremental splice both end here, so they agree exactly."""
    order = sorted(range(len(symbols)), key=lambda i: (symbols[i].sel_start, symbols[i].start, symbols[i].kind))
    imp_order = sorted(range(len(imports)), key=lambda i: (imports[i].start, imports[i].symbol >= 0 and symbols[imports[i].symbol].sel_start, imports[i].module))
    pos = {old: new for new, old in enumerate(order)}
    ipos = {old: new for new, old in enumerate(imp_order)}
    for sc_ in scopes:
        if sc_.owner >= 0:
            sc_.owner = pos[sc_.owner]
    out = [symbols[i] for i in order]
    for sym in out:
        if sym.parent >= 0:
            sym.parent = pos[sym.parent]
        if sym.target >= 0:
            sym.target = ipos[sym.target]
    imps = [imports[i] for i in imp_order]
    for imp in imps:
        if imp.symbol >= 0:
            imp.symbol = pos[imp.symbol]
    return out, imps
