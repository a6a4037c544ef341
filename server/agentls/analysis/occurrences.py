"""The occurrence table of a file: every identifier use, with the dotted receiver of
member accesses (`a.b.c` → `c` with receiver `a.b`; `Foo(x).m` → receiver `Foo()`; a
literal `", ".join` → receiver `str()`, language data), and the uses that doc comments
name (`{@link X}`, `@param x`).
Must not know: tree-sitter beyond node byte offsets, resolution, LSP.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from typing import Any

from agentls.analysis.model import COMPLEX, DOC_PARAM, KEYWORD, PLAIN

_MEMBER = re.compile(rb"(.*?)\s*\??\.\s*(#?[A-Za-z_$\x80-\xff][\w$\x80-\xff]*)$", re.S)
_DOTTED = re.compile(r"^[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*(?:\.[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*)*$")
_WS = re.compile(rb"\s+")
_SPACES = re.compile(r"\s+")
_CALL = re.compile(rb"^([^()]+?)\((?:[^()]|\([^()]*\))*\)$", re.S)  # `Foo(args)` -> `Foo()`


def dotted(text: str) -> str | None:
    """`text` without spaces if it is a dotted name (`a.b.c`), else None."""
    text = _SPACES.sub("", text)
    return text if _DOTTED.match(text) else None


_LITERALS: dict[str, list[tuple[re.Pattern[bytes], bytes]]] = {}


def _literal_receivers(spec: Any) -> list[tuple[re.Pattern[bytes], bytes]]:
    """language.json `literal_receivers`: a literal receiver's pattern and the call that
    makes such a value (`"…"` → `str()`), so its members resolve like the class's."""
    if spec is None:
        return []
    got = _LITERALS.get(spec.name)
    if got is None:
        got = _LITERALS[spec.name] = [(re.compile(p.encode()), m.encode()) for p, m in spec.options.get("literal_receivers", ())]
    return got


def _doc_uses(data: bytes, comments: list[Any], spec: Any, recv_of: dict[int, int], intern: Any) -> list[tuple[int, int]]:
    """`{@link a.b}` and `@param x` in doc comments, as extra occurrences: a link's first
    part is a plain name and the rest members; a parameter is marked DOC_PARAM."""
    spans: list[tuple[int, int]] = []
    for node in comments:
        a, b = node.start_byte, node.end_byte
        if b"@" not in data[a:b]:
            continue
        if spec.doc_links is not None:
            for m in spec.doc_links.finditer(data, a, b):
                pos = m.start(1)
                parts = m.group(1).split(b".")
                for k, part in enumerate(parts):
                    if k:
                        recv_of[pos] = intern(b".".join(parts[:k]))
                    spans.append((pos, pos + len(part)))
                    pos += len(part) + 1
        if spec.doc_params is not None:
            for m in spec.doc_params.finditer(data, a, b):
                recv_of[m.start(1)] = DOC_PARAM
                spans.append((m.start(1), m.end(1)))
    return spans


def _keywords(data: bytes, refs: dict[str, list[Any]], recv_of: dict[int, int], skip: set[int], intern: Any) -> None:
    """Keyword-argument names of calls with a dotted callee become uses marked with the
    callee (KEYWORD - its names index): each pairs with the innermost argument list that
    holds it, and a call's callee and argument list come in the same order."""
    names = refs.get("keyword.name")
    if not names:
        return
    # a call with several keywords matches once per keyword: one callee and one list each
    callees = sorted({(n.start_byte, n.end_byte): n for n in refs.get("keyword.callee", ())}.values(), key=lambda n: (n.start_byte, n.end_byte))
    args = sorted({(n.start_byte, n.end_byte): n for n in refs.get("keyword.args", ())}.values(), key=lambda n: n.start_byte)
    if len(callees) != len(args):
        return
    arg_starts = [a.start_byte for a in args]
    for node in names:
        k = node.start_byte
        i = bisect_right(arg_starts, k) - 1
        while i >= 0 and args[i].end_byte <= k:
            i -= 1
        if i < 0:
            continue
        callee = _WS.sub(b"", data[callees[i].start_byte : callees[i].end_byte])
        m = _MEMBER.match(callee)
        call = _CALL.match(m.group(1)) if m is not None and m.group(1).endswith(b")") else None
        if call is not None and m is not None:  # `Foo(x).m(k=1)`: the callee is `Foo().m`
            callee = call.group(1) + b"()." + m.group(2)
        if dotted(callee.decode("utf-8", "replace").replace("().", ".")):
            recv_of[k] = KEYWORD - intern(callee)
            skip.discard(k)


def _keyed(data: bytes, refs: dict[str, list[Any]], recv_of: dict[int, int], intern: Any) -> set[int]:
    """Keys of object literals passed to calls (@keyed): receiver `callee(@k)` (`new callee(@k)`),
    k the argument's index; returns their offsets (no longer skipped)."""
    keys = refs.get("keyed")
    if not keys:
        return set()
    callees = {(n.parent.start_byte, n.parent.end_byte): (n, False) for n in refs.get("keyed.callee", ())}
    callees.update({(n.parent.start_byte, n.parent.end_byte): (n, True) for n in refs.get("keyed.new", ())})
    out: set[int] = set()
    for key in keys:
        obj = key.parent.parent  # key → pair → object → arguments → call
        args = obj.parent
        got = callees.get((args.parent.start_byte, args.parent.end_byte))
        if got is None:
            continue
        callee = dotted(data[got[0].start_byte : got[0].end_byte].decode("utf-8", "replace"))
        starts = [c.start_byte for c in args.named_children if c.type != "comment"]
        if callee and obj.start_byte in starts:
            recv_of[key.start_byte] = intern(f"{'new ' if got[1] else ''}{callee}(@{starts.index(obj.start_byte)})".encode())
            out.add(key.start_byte)
    return out


def occurrences(data: bytes, refs: dict[str, list[Any]], spec: Any = None) -> tuple[list[str], array[int], array[int], array[int]]:
    """The occurrence table of a file: distinct names and three parallel arrays."""
    names: list[str] = []
    ids: dict[bytes, int] = {}
    recv_of: dict[int, int] = {}
    skip = {n.start_byte for n in refs.get("skip", ())}

    def intern(raw: bytes) -> int:
        i = ids.get(raw)
        if i is None:
            i = ids[raw] = len(names)
            names.append(raw.decode("utf-8", "replace"))
        return i

    member = _MEMBER.match
    literals = _literal_receivers(spec)
    for node in refs.get("member", ()):
        end = node.end_byte
        m = member(data, node.start_byte, end)
        if m is None:
            continue
        recv = _WS.sub(b"", m.group(1))
        if b"!" in recv:  # TS non-null assertions: `config!.value`, `a!.b!.c`
            recv = recv.replace(b"!", b"")
        start = end - len(m.group(2))
        if recv.endswith(b")"):
            call = _CALL.match(recv)
            if call and dotted(call.group(1).decode("utf-8", "replace")):
                recv_of[start] = intern(call.group(1) + b"()")
                continue
        if recv and dotted(recv.decode("utf-8", "replace")):
            recv_of[start] = intern(recv)
        else:
            literal = next((made for pattern, made in literals if pattern.match(recv)), None)
            recv_of[start] = intern(literal) if literal else COMPLEX  # `", ".join` -> `str()`
    skip -= _keyed(data, refs, recv_of, intern)
    _keywords(data, refs, recv_of, skip, intern)
    occ_name: array[int] = array("I")
    occ_start: array[int] = array("I")
    occ_recv: array[int] = array("i")
    get_recv = recv_of.get
    add_n, add_s, add_r = occ_name.append, occ_start.append, occ_recv.append
    spans = [(n.start_byte, n.end_byte) for n in refs.get("reference", ())]
    if spec is not None and refs.get("comment"):
        spans += _doc_uses(data, refs["comment"], spec, recv_of, intern)
    spans.sort()
    for start, end in spans:
        if start in skip:
            continue
        raw = data[start:end]
        i = ids.get(raw)
        if i is None:
            i = intern(raw)
        add_n(i)
        add_s(start)
        add_r(get_recv(start, PLAIN))
    return names, occ_name, occ_start, occ_recv
