"""Hint values from tags-query captures (see grammars/README.md): what extract.py stores
as a binding's `Symbol.value`:

    "Foo"     an instance of what `Foo` names: a call `Foo(...)`, an annotation `x: Foo`
              (also `"Foo"`, `Optional[Foo]`, `Foo | None`; `Foo[int]` is `Foo[]`)
    "f()"     what f returns (`x = f()`, TypeScript); `x.y.a` a destructured member;
              `callee(@k.j)` a callback's parameter (callbacks.py reads it)
    "=a.b"    the same value as `a.b`: an alias `x = a.b`
    "*Foo"    a container of Foo instances (`list[Foo]`, `t.Sequence["Foo"]`)
    "%a.b()"  an item of what `a.b()` gives: a loop variable `for x in a.b():`
    "->Foo"   a function whose call makes an instance of `Foo` (its return annotation;
              `->->Foo`: its call makes a callable that makes a Foo, `Callable[..., Foo]`)
    "^Foo"    a property: a function read as a value of its return type
    "@d.e()"  a function decorated with `@d.e(...)` (its topmost decorator): the name is
              what that decorator makes of it; `@d.e();->Foo` keeps the return annotation
              for decorators that leave the function alone (`@overload`, `@staticmethod`)

Captures: @hint.target the bound name, and one of @hint.value (a dotted name), @hint.type
(an annotation), @hint.alias (a dotted value), @hint.return (a return annotation),
@hint.property (a property's return annotation),
@hint.decorator (a decorator's expression), @hint.items (what a loop iterates), or the
TypeScript ones (@hint.call, @hint.from, @hint.fn, @hint.array). Which names mean "no
value" (`None`), which wrappers hold one optional type (`Optional`, `Union`), which
generic is a callable whose last argument is what its call makes (`Callable`), and which
containers hold their first argument (`List`, `Sequence`) is language data (language.json
`null_types`, `optional_wrappers`, `callable_types`, `iterable_types`; TypeScript's
`type_wrappers`, `array_type`). Reads the captured nodes' byte offsets, fields and
children only. Must not know: resolution, LSP.
"""

from __future__ import annotations

import re
from typing import Any

from agentls.analysis.occurrences import dotted

_GENERIC = re.compile(r"^([\w.]+)\s*\[(.*)\]$", re.S)


def _text(data: bytes, node: Any) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _position(parent: Any, child: Any) -> int:
    """Index of `child` among the named children of `parent` (comments left out)."""
    starts = [c.start_byte for c in parent.named_children if c.type != "comment"]
    return starts.index(child.start_byte) if child.start_byte in starts else -1


def callback_hint(data: bytes, caps: dict[str, list[Any]]) -> str | None:
    """The hint value of a callback's parameter from its tags-query captures (extract.py
    hands the nodes; only their byte offsets and children are read)."""
    new = "hint.new" in caps
    callee = dotted(_text(data, caps["hint.new" if new else "hint.callee"][0]))
    fn, param = caps["hint.fn"][0], caps["hint.param"][0]
    k = _position(caps["hint.args"][0], caps.get("hint.arg", [fn])[0])
    j = 0 if param.parent is None or param.parent == fn else _position(param.parent, param)  # `x => …`: 0
    if not callee or k < 0 or j < 0:
        return None
    return f"{'new ' if new else ''}{callee}(@{k}.{j})"


def _unwrapped(data: bytes, node: Any, wrappers: frozenset[str]) -> Any:
    """`Partial<Observer<T>>` names Observer: a wrapper type's (language.json
    `type_wrappers`) first type argument stands for it."""
    for _ in range(4):
        if _text(data, node) not in wrappers or node.parent is None:
            break
        args = node.parent.child_by_field_name("type_arguments")
        inner = args.named_children[0] if args is not None and args.named_children else None
        if inner is None:
            break
        node = inner.child_by_field_name("name") or inner
    return node


def hint_value(data: bytes, caps: dict[str, list[Any]], wrappers: frozenset[str] = frozenset(), array: str | None = None) -> str | None:
    if "hint.array" in caps:  # `T[]`: an instance of the language's array type
        return array + "()" if array else None
    if "hint.fn" in caps:  # a callback's parameter: `callee(@k.j)`
        return callback_hint(data, caps)
    if "hint.from" in caps:  # `const { a } = x.y`: `x.y.a`
        source = dotted(_text(data, caps["hint.from"][0]))
        return f"{source}.{_text(data, caps['hint.target'][0])}" if source else None
    if "hint.call" in caps:  # `x = f()`: what f returns, written `f()`
        callee = dotted(_text(data, caps["hint.call"][0]))
        return callee + "()" if callee else None
    node = caps["hint.value"][0]
    return dotted(_text(data, _unwrapped(data, node, wrappers) if wrappers else node))


def _split(text: str, sep: str) -> list[str]:
    """Top-level parts of `text` split at `sep` (brackets and quotes nest)."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def annotation(text: str, spec: Any) -> str | None:
    """The dotted name of the one class an annotation names, or None."""
    options = spec.options if spec is not None else {}
    nulls = set(options.get("null_types", ()))
    wrappers = set(options.get("optional_wrappers", ()))
    callables = set(options.get("callable_types", ()))
    iterables = set(options.get("iterable_types", ()))
    for _ in range(6):
        text = text.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
            continue
        kept = [p for p in _split(text, "|") if p not in nulls]
        if len(kept) != 1:
            return None
        if kept[0] != text:
            text = kept[0]
            continue
        m = _GENERIC.match(text)
        if m is None:
            return dotted(text)
        generic = m.group(1).rsplit(".", 1)[-1]
        if generic in iterables:  # `list[Foo]`, `tuple[Foo, ...]`: a container of Foo
            args = _split(m.group(2), ",")
            if len(args) == 1 or (len(args) == 2 and args[1] == "..."):
                item = annotation(args[0], spec)
                return "*" + item if item and item[0] not in "-*" else None
            return None
        if generic in callables:  # `Callable[[int], Foo]`: its call makes a Foo
            made = annotation(_split(m.group(2), ",")[-1], spec)
            return "->" + made if made else None
        if generic not in wrappers:
            made = dotted(m.group(1))  # `Foo[int]`: an instance of Foo (marked generic)
            return made + "[]" if made else None
        args = [a for a in _split(m.group(2), ",") if a not in nulls]
        if len(args) != 1:
            return None
        text = args[0]
    return None


#: which hint wins when one name has several (`x: Foo = make()`): the annotation
_RANK = {"hint.type": 0, "hint.property": 0, "hint.value": 1, "hint.alias": 2, "hint.items": 3, "hint.return": 4, "hint.decorator": 5}
_MAIN_CAPS = ("hint.array", "hint.fn", "hint.from", "hint.call", "hint.value")
_CALLED = re.compile(r"^([^()]+)\((?:.|\n)*\)$")


def ranked_hint(data: bytes, caps: dict[str, list[Any]], spec: Any) -> tuple[int, str | None]:
    """The rank and the `Symbol.value` text of one hint match (None: nothing usable)."""
    if any(c in caps for c in _MAIN_CAPS):  # TypeScript's hints, `x = Foo()`
        options = spec.options if spec is not None else {}
        wrappers, array = frozenset(options.get("type_wrappers", ())), options.get("array_type")
        return _RANK["hint.value"], hint_value(data, caps, wrappers, array)
    cap = next((c for c in _RANK if c in caps), None)
    if cap is None:
        return len(_RANK), None
    rank = _RANK[cap]
    node = caps[cap][0]
    text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    if cap == "hint.value":
        return rank, dotted(text)
    if cap in ("hint.decorator", "hint.items"):
        m = _CALLED.match(text.strip())
        value = dotted(m.group(1)) if m else dotted(text)
        mark = "@" if cap == "hint.decorator" else "%"
        return rank, (mark + value + ("()" if m else "")) if value else None
    value = dotted(text) if cap == "hint.alias" else annotation(text, spec)
    if value is None:
        return rank, None
    return rank, {"hint.alias": "=", "hint.return": "->", "hint.property": "^"}.get(cap, "") + value


class Hints:
    """The hints of one file by the byte offset of the name they are about: the best-ranked
    one, except that a decorator and a return annotation are kept together."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.best: dict[int, tuple[int, str]] = {}
        self.decorators: dict[int, str] = {}

    def add(self, data: bytes, caps: dict[str, list[Any]]) -> None:
        rank, value = ranked_hint(data, caps, self.spec)
        target = caps["hint.target"][0].start_byte
        if not value:
            return
        if value.startswith("@"):
            self.decorators.setdefault(target, value)
        elif rank < self.best.get(target, (99, ""))[0]:
            self.best[target] = (rank, value)

    def get(self, target: int) -> str:
        rank, value = self.best.get(target, (99, ""))
        deco = self.decorators.get(target)
        if deco is None or rank < _RANK["hint.return"]:
            return value
        return deco + (";" + value if value else "")


def returns(value: str) -> str:
    """The return-annotation part of a function's `Symbol.value` ("->Foo"), or ""."""
    if value.startswith("@"):
        value = value.partition(";")[2]
    return value if value.startswith("->") else ""
