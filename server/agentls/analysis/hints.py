"""Hint values from tags-query captures (see grammars/README.md): what extract.py stores
as a binding's `value` — a dotted class or type name, `f()` for a call's result, `x.y.a`
for a destructured member, `callee(@k.j)` for a callback's parameter (callbacks.py reads
it). Reads the captured nodes' byte offsets, fields and children only.
Must not know: resolution, LSP.
"""

from __future__ import annotations

from typing import Any

from agentls.analysis.occurrences import dotted


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
