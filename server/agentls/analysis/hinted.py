"""Values from the hints Python code writes (hints.py): which assignment reaches a use,
what a call returning an annotation makes, what a decorator makes of a function, and
which parameter a keyword argument names. A base of Values (which defines the lookups
used here). Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from agentls.analysis.hints import returns
from agentls.analysis.keys import EXTERNAL, Key, Value
from agentls.analysis.model import FileIndex, Symbol

if TYPE_CHECKING:
    from agentls.analysis.view import IndexView


class HintedValues:
    state: IndexView

    def lookup(self, path: str, name: str, offset: int, depth: int = 0) -> Key | None:
        raise NotImplementedError

    def innermost_scope(self, fi: FileIndex, offset: int) -> int:
        raise NotImplementedError

    def eval_dotted(self, path: str, text: str, offset: int, depth: int = 0) -> Value | None:
        raise NotImplementedError

    def member(self, value: Value, name: str, depth: int = 0, seen: set[tuple[str, int]] | None = None) -> Key | None:
        raise NotImplementedError

    def reaching(self, key: Key, path: str, offset: int) -> list[int]:
        """The symbols of a binding that give its value at `offset`: used in the scope it
        binds in, the last assignment before it (source order, as a type checker's flow
        sees a straight line); from a nested scope, or with none before it, all of them."""
        fi = self.state.files.get(key.path)
        if key.scope < 0 or fi is None:
            return []
        syms = self.state.bindings(key.path).get((key.scope, key.name), [])
        if len(syms) < 2 or key.path != path or self.innermost_scope(fi, offset) != key.scope:
            return syms
        before = [i for i in syms if fi.symbols[i].sel_start <= offset]
        return before[-1:] or syms

    def flow_mark(self, path: str, fi: FileIndex, scope: int, name: str, offset: int) -> int:
        """How many assignments of `name` in `scope` come before `offset`: what `reaching`
        depends on, so a cached evaluation is kept apart per assignment reached."""
        syms = self.state.bindings(path).get((scope, name))
        if not syms or len(syms) < 2:
            return 0
        return sum(1 for i in syms if fi.symbols[i].sel_start <= offset)

    def _made(self, path: str, text: str, offset: int, depth: int) -> Value | None:
        """What a call returning `text` (hints.py) makes: an instance of a class, with
        `->Foo` a callable that makes one, with `*Foo` a container of them."""
        kind = "callable" if text.startswith("->") else "items" if text.startswith("*") else "instance"
        made = self.eval_dotted(path, text.lstrip("->*").removesuffix("[]"), offset, depth + 1)
        if made is None or made.kind != "class":
            return None
        return Value(kind, made.path, made.symbol)

    def _decorated(self, path: str, sym: Symbol, depth: int) -> Value | None:
        """What the topmost decorator makes of a function: `@f` calls f with it, `@f(...)`
        calls what f returns; among overloads, the first whose return fits that shape."""
        deco = sym.value[1:].partition(";")[0]
        called = deco.endswith("()")
        recv, _, last = deco.removesuffix("()").rpartition(".")
        if recv:
            owner = self.eval_dotted(path, recv, sym.start, depth + 1)
            key = self.member(owner, last, depth + 1) if owner is not None else None
        else:
            key = self.lookup(path, last, sym.start, depth + 1)
        fi = self.state.files.get(key.path) if key is not None and key.scope >= 0 else None
        if key is None or fi is None:
            return None
        for i in self.state.bindings(key.path).get((key.scope, key.name), []):
            d = fi.symbols[i]
            if d.kind == "class":
                return None if called else Value("instance", key.path, i)
            ret = returns(d.value)
            if ret and (not called or ret.startswith("->->")):
                made = self._made(key.path, ret[4:] if called else ret[2:], d.start, depth)
                if made is not None:
                    return made
        return None

    def keyword_parameter(self, path: str, callee: str, name: str, offset: int) -> Key | None:
        """The parameter a keyword argument names: of the function called, or of a class's
        `__init__`; outside the workspace, a key of its own (`dict(x=1)`)."""
        recv, _, last = callee.rpartition(".")
        if recv:
            owner = self.eval_dotted(path, recv, offset)
            key = self.member(owner, last) if owner is not None else None
        else:
            key = self.lookup(path, last, offset)
        for _ in range(2):
            if key is None:
                return None
            if key.external or key.scope < 0:
                return Key(f"{key.path}.{key.name}()", EXTERNAL, name)
            fi = self.state.files[key.path]
            syms = [fi.symbols[i] for i in self.state.bindings(key.path).get((key.scope, key.name), [])]
            if any(s.kind == "class" for s in syms):  # `Foo(x=1)`: Foo.__init__'s x
                key = self.member(Value("class", key.path, self.state.bindings(key.path)[(key.scope, key.name)][0]), "__init__")
                continue
            starts = self.state.scope_starts(key.path)
            for sym in reversed(syms):  # the implementation after its overloads
                i = bisect_left(starts, sym.start)
                params = self.state.bindings(key.path).get((i, name), []) if sym.kind in ("function", "method") and i < len(starts) else []
                if any(fi.symbols[j].kind == "parameter" for j in params):  # not a local of `**kwargs`
                    return Key(key.path, i, name)
            return None
        return None
