"""Incremental re-extraction: after an edit inside a function, extract only that function
and splice the result into the file's previous index, shifting what follows.

The function is the innermost function scope that strictly contains the edit and still
spans one node of the new tree. Everything before it is kept, its enclosing scopes grow
by the edit's size, everything after it moves; the function's own scopes, symbols,
imports and occurrences come from queries run on its range alone, with the enclosing
scopes given so that `self.x` and methods bind as in a full build. Both paths end in
`extract.canonical`, and the tests check a splice equals a full build. Anything else (a
structural edit, several edits, syntax errors) returns None and the caller rebuilds.
Must not know: tree-sitter (the grammar adapter runs the queries), LSP.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from typing import Any

from agentls.analysis import extract
from agentls.analysis.model import KEYWORD, FileIndex, Import, Scope, Symbol
from agentls.analysis.occurrences import occurrences
from agentls.workspace.documents import ByteEdit
from agentls.workspace.positions import ascii_line_starts

_POSITIONS = ("start", "end", "sel_start", "sel_end", "detail_end", "doc_start", "doc_end")


def _valid(old: FileIndex, rs: int, re_: int) -> bool:
    """Whether [rs, re_) (old coordinates) can be re-extracted on its own: no scope,
    import or definition straddles it; the definitions around it keep their header
    (signature, docstring, class hint) outside it. Export lists live at module level,
    never inside a function; `global`/`nonlocal` inside the function bind as in a full
    build (its enclosing scopes are given), and none outside it can reach in."""
    for sc in old.scopes[1:]:
        inside = rs <= sc.start and sc.end <= re_
        if not (inside or sc.end <= rs or sc.start >= re_ or (sc.start <= rs and sc.end >= re_)):
            return False
    for imp in old.imports:
        if not (rs <= imp.start and imp.end <= re_) and imp.start < re_ and imp.end > rs:
            return False
    for sym in old.symbols:
        if rs <= sym.start < re_:
            if sym.end > re_ or 0 <= sym.doc_start < rs:  # a JSDoc before the region documents it
                return False
            continue
        if sym.start < rs < sym.end or sym.start < re_ < sym.end:  # around the region
            if sym.end < re_ or sym.value or sym.detail_end > rs or sym.sel_end > rs:
                return False
            if sym.doc_start >= 0 and sym.doc_start < re_ and sym.doc_end > rs:
                return False
    return True


def splice(
    old: FileIndex, data: bytes, tree: Any, edits: list[ByteEdit], grammar: Any, mtime_ns: int,
    changed: list[tuple[int, int]],
) -> FileIndex | None:
    """The new index of `old` after `edits`, or None when only a full extraction will do.
    `changed` are the ranges whose syntax tree-sitter says changed (new coordinates): the
    region must hold them all."""
    if len(edits) != 1 or old.has_errors or tree.root_node.has_error:
        return None
    e = edits[0]
    a, b, delta = e.start_byte, e.old_end_byte, e.new_end_byte - e.old_end_byte
    chosen = None
    functions = {(sc.start, sc.end) for sc in old.scopes if sc.kind == "function"}
    for rs, re2 in grammar.enclosing(tree, a, e.new_end_byte):
        re_ = re2 - delta
        if (rs, re_) not in functions or not (rs < a and b < re_):
            continue  # only a whole function that still spans one node is re-extracted alone
        if all(rs <= c0 and c1 <= re2 for c0, c1 in changed) and _valid(old, rs, re_):
            chosen = (rs, re_, re2)
            break
    if chosen is None:
        return None
    fs, fe, fe2 = chosen
    want_occ = old.has_occurrences
    region = grammar.region(tree, fs, fe2, want_occ)
    if region is None:
        return None
    matches, refs = region

    def shift(pos: int) -> int:
        return pos + delta if pos >= fe else pos

    # --- scopes: before (ancestors grow), the function's subtree (replaced), after (moved)
    starts = [sc.start for sc in old.scopes]
    first = max(1, bisect_left(starts, fs))
    last = bisect_left(starts, fe)
    while last < len(old.scopes) and old.scopes[last].start < fe:
        last += 1
    ancestors = [i for i in range(1, first) if old.scopes[i].start <= fs and old.scopes[i].end >= fe]
    mini = extract.build(
        grammar.spec, old.path, data, matches, None, [], mtime_ns,
        extra_scopes=[(old.scopes[i].start, shift(old.scopes[i].end), old.scopes[i].kind) for i in ancestors],
    )
    region_scopes = [i for i, sc in enumerate(mini.scopes) if i > 0 and fs <= sc.start < fe2]
    n_new = len(region_scopes)
    scope_map: dict[int, int] = {0: 0}
    mini_anc = [i for i, sc in enumerate(mini.scopes) if i > 0 and not (fs <= sc.start < fe2)]
    for m, o in zip(mini_anc, sorted(ancestors), strict=True):
        scope_map[m] = o
    for k, m in enumerate(region_scopes):
        scope_map[m] = first + k

    def old_scope(i: int) -> int:
        return i if i < first else i - (last - first) + n_new

    scopes: list[Scope] = []
    for i in range(first):
        sc = old.scopes[i]
        scopes.append(Scope(sc.kind, sc.start, shift(sc.end), sc.parent, sc.owner))
    for m in region_scopes:
        sc = mini.scopes[m]
        scopes.append(Scope(sc.kind, sc.start, sc.end, scope_map[sc.parent], -1))
    for i in range(last, len(old.scopes)):
        sc = old.scopes[i]
        scopes.append(Scope(sc.kind, sc.start + delta, sc.end + delta, old_scope(sc.parent), sc.owner))

    # --- symbols and imports: old ones outside the function (moved), the mini ones inside
    symbols: list[Symbol] = []
    sym_map: dict[int, int] = {}
    for i, sym in enumerate(old.symbols):
        if fs <= sym.start < fe:
            continue
        sym_map[i] = len(symbols)
        fields = {k: getattr(sym, k) for k in sym.__slots__}
        for field in _POSITIONS:
            if fields[field] >= 0:
                fields[field] = shift(fields[field])
        fields["scope"] = old_scope(sym.scope)
        symbols.append(Symbol(**fields))
    offset = len(symbols)
    for sym in mini.symbols:
        fields = {k: getattr(sym, k) for k in sym.__slots__}
        fields["scope"] = scope_map[sym.scope]
        symbols.append(Symbol(**fields))
    for sc in scopes:  # owners: old ones renumbered; the region's from the mini build
        if sc.owner >= 0 and not (fs <= sc.start < fe2):
            sc.owner = sym_map.get(sc.owner, -1)
    for k, m in enumerate(region_scopes):
        owner = mini.scopes[m].owner
        scopes[first + k].owner = owner + offset if owner >= 0 else -1

    imports: list[Import] = []
    imp_map: dict[int, int] = {}
    for i, imp in enumerate(old.imports):
        if fs <= imp.start < fe:
            continue
        imp_map[i] = len(imports)
        imports.append(Import(imp.module, imp.name, imp.alias, shift(imp.start), shift(imp.end), old_scope(imp.scope), imp.star, imp.reexport, sym_map.get(imp.symbol, -1)))
    imp_offset = len(imports)
    for imp in mini.imports:
        imports.append(Import(imp.module, imp.name, imp.alias, imp.start, imp.end, scope_map[imp.scope], imp.star, imp.reexport, imp.symbol + offset if imp.symbol >= 0 else -1))
    for k, sym in enumerate(symbols):
        if sym.target >= 0:
            sym.target = imp_map.get(sym.target, -1) if k < offset else sym.target + imp_offset

    for sym in symbols:  # parents, as build() computes them (imports have none)
        if sym.kind == "import":
            sym.parent = -1
            continue
        s = sym.scope
        while s > 0 and scopes[s].owner == -1:
            s = scopes[s].parent
        sym.parent = scopes[s].owner if s > 0 else -1
    symbols, imports = extract.canonical(scopes, symbols, imports)

    fi = FileIndex(
        path=old.path, language=old.language, size=len(data), mtime_ns=mtime_ns, has_errors=False,
        scopes=scopes, symbols=symbols, imports=imports, exports=list(old.exports),
        names=None, occ_name=None, occ_start=None, occ_recv=None, errors=[], ascii_lines=ascii_line_starts(data),
    )
    if want_occ and refs is not None:
        _splice_occurrences(old, fi, data, refs, grammar.spec, fs, fe, delta)
    return fi


def _splice_occurrences(old: FileIndex, fi: FileIndex, data: bytes, refs: dict[str, list[Any]], spec: Any, fs: int, fe: int, delta: int) -> None:
    table = old.table()
    names, name_id, start, recv = occurrences(data, refs, spec)
    all_names = list(table.names)
    ids = {n: i for i, n in enumerate(all_names)}

    def intern(n: str) -> int:
        i = ids.get(n)
        if i is None:
            i = ids[n] = len(all_names)
            all_names.append(n)
        return i

    lo, hi = bisect_left(table.start, fs), bisect_left(table.start, fe)
    occ_name = table.name[:lo] + array("I", (intern(names[i]) for i in name_id)) + table.name[hi:]
    occ_start = table.start[:lo] + start + array("I", (x + delta for x in table.start[hi:]))
    new_recv = array("i", (intern(names[r]) if r >= 0 else KEYWORD - intern(names[KEYWORD - r]) if r <= KEYWORD else r for r in recv))
    occ_recv = table.recv[:lo] + new_recv + table.recv[hi:]
    fi.names, fi.occ_name, fi.occ_start, fi.occ_recv = all_names, occ_name, occ_start, occ_recv

