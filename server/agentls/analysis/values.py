"""Receivers and members: what `a.b.c`, `self.x`, `Foo().m` evaluate to (a module, a
class, an instance, or something outside the workspace), and the member a name picks
there, walking base classes by name. A mixin of Resolver (scope lookups live there).
Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from agentls.analysis.hints import returns
from agentls.analysis.keys import BUILTINS, EXTERNAL, MAX_DEPTH, Key, Value
from agentls.analysis.model import CLASS, FileIndex, Symbol

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex


class Values:
    ix: WorkspaceIndex

    def lookup(self, path: str, name: str, offset: int, depth: int = 0) -> Key | None:
        raise NotImplementedError

    def member_of_module(self, target: str, name: str, depth: int = 0, star: bool = False) -> Key | None:
        raise NotImplementedError

    def innermost_scope(self, fi: FileIndex, offset: int) -> int:
        raise NotImplementedError

    def _module_file(self, path: str, module: str) -> str | None:
        raise NotImplementedError

    def reaching(self, key: Key, path: str, offset: int) -> list[int]:
        """The symbols of a binding that give its value at `offset`: used in the scope it
        binds in, the last assignment before it (source order, as a type checker's flow
        sees a straight line); from a nested scope, or with none before it, all of them."""
        fi = self.ix.files.get(key.path)
        if key.scope < 0 or fi is None:
            return []
        syms = self.ix.bindings(key.path).get((key.scope, key.name), [])
        if len(syms) < 2 or key.path != path or self.innermost_scope(fi, offset) != key.scope:
            return syms
        before = [i for i in syms if fi.symbols[i].sel_start <= offset]
        return before[-1:] or syms

    def value_of(self, key: Key, depth: int = 0, syms: list[int] | None = None) -> Value | None:
        if depth > MAX_DEPTH:
            return None
        if key.scope == EXTERNAL:
            return Value("external", f"{key.path}.{key.name}" if key.name else key.path)
        if key.scope == -1:
            return Value("module", key.path)
        fi = self.ix.files.get(key.path)
        if fi is None:
            return None
        if not syms:
            syms = self.ix.bindings(key.path).get((key.scope, key.name), [])
        for i in syms:
            sym = fi.symbols[i]
            if sym.kind in ("class", "interface"):
                return Value("class", key.path, i)
            if sym.kind == "module":
                return Value("module", key.path, i)
            if sym.value.startswith("@"):  # what its decorator makes of a function
                made = self._decorated(key.path, sym, depth + 1)
                if made is not None:
                    return made
            if returns(sym.value):  # a function with a return annotation (hints.py)
                return Value("function", key.path, i)
        for i in syms:
            sym = fi.symbols[i]
            if sym.value.startswith(("@", "->")):
                continue
            if sym.value.startswith("%"):  # `for x in a.b`: an item of a.b
                v = self.eval_dotted(key.path, sym.value[1:], max(sym.start - 1, 0), depth + 1)
                if v is not None and v.kind == "items":
                    return Value("instance", v.path, v.symbol)
                continue
            if sym.value.startswith("*"):  # `x: list[Foo]`: a container of Foo
                v = self._made(key.path, sym.value, max(sym.start - 1, 0), depth + 1)
                if v is not None:
                    return v
                continue
            if sym.value.startswith("="):  # `x = a.b`: the value of a.b
                v = self.eval_dotted(key.path, sym.value[1:], max(sym.start - 1, 0), depth + 1)
                if v is not None:
                    return v
            elif sym.value:  # `x = Foo()`, `x: Foo`, `x = make()` with `def make() -> Foo`
                generic = sym.value.endswith("[]")  # `x: Foo[T]`
                v = self.eval_dotted(key.path, sym.value.removesuffix("[]"), max(sym.start - 1, 0), depth + 1)
                if v is not None and (v.kind in ("class", "function") or (v.kind == "external" and not generic)):
                    return self._called(v, depth + 1)  # `x: str` is a `str()`; an outside
                    # generic stays unknown (what `ContextVar[T].get()` returns is not read)
        return None

    def eval_dotted(self, path: str, text: str, offset: int, depth: int = 0) -> Value | None:
        if depth > MAX_DEPTH:
            return None
        parts = text.split(".")
        first = parts[0]
        spec = self.ix.spec(path)
        value: Value | None
        call = first.endswith("()")
        first = first.removesuffix("()")
        if spec is not None and parts[0] in spec.options.get("super_receivers", ()):
            cls = self.enclosing_class(path, offset)  # `super()`: the bases of the class
            value = Value("super", cls.path, cls.symbol) if cls is not None else None
            call = False
        elif spec is not None and first in spec.self_names:
            value = self.enclosing_class(path, offset)
        else:
            key = self.lookup(path, first, offset, depth + 1)
            value = self.value_of(key, depth + 1, self.reaching(key, path, offset)) if key else None
        value = self._called(value, depth + 1) if call else value
        for part in parts[1:]:
            if value is None:
                return None
            call = part.endswith("()")
            key = self.member(value, part.removesuffix("()"), depth + 1)
            value = self.value_of(key, depth + 1) if key else None
            value = self._called(value, depth + 1) if call else value
        return value

    def _called(self, value: Value | None, depth: int = 0) -> Value | None:
        """Calling a class makes an instance, and a function with a return annotation an
        instance of what it names; other calls are not followed."""
        if value is None or depth > MAX_DEPTH:
            return None
        if value.kind == "external":
            return Value("external", value.path + "()")
        if value.kind == "function":
            sym = self.ix.files[value.path].symbols[value.symbol]
            return self._made(value.path, returns(sym.value)[2:], sym.start, depth + 1)
        if value.kind == "callable":
            return Value("instance", value.path, value.symbol)
        return Value("instance", value.path, value.symbol) if value.kind == "class" else None

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
        fi = self.ix.files.get(key.path) if key is not None and key.scope >= 0 else None
        if key is None or fi is None:
            return None
        for i in self.ix.bindings(key.path).get((key.scope, key.name), []):
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
            fi = self.ix.files[key.path]
            syms = [fi.symbols[i] for i in self.ix.bindings(key.path).get((key.scope, key.name), [])]
            if any(s.kind == "class" for s in syms):  # `Foo(x=1)`: Foo.__init__'s x
                key = self.member(Value("class", key.path, self.ix.bindings(key.path)[(key.scope, key.name)][0]), "__init__")
                continue
            starts = self.ix.scope_starts(key.path)
            for sym in reversed(syms):  # the implementation after its overloads
                i = bisect_left(starts, sym.start)
                params = self.ix.bindings(key.path).get((i, name), []) if sym.kind in ("function", "method") and i < len(starts) else []
                if any(fi.symbols[j].kind == "parameter" for j in params):  # not a local of `**kwargs`
                    return Key(key.path, i, name)
            return None
        return None

    def enclosing_class(self, path: str, offset: int) -> Value | None:
        fi = self.ix.files[path]
        s = self.innermost_scope(fi, offset)
        while s > 0:
            scope = fi.scopes[s]
            if scope.kind == CLASS:
                return Value("instance", path, scope.owner) if scope.owner >= 0 else None
            s = scope.parent
        return None

    def class_scope(self, fi: FileIndex, symbol: int) -> int:
        for i, s in enumerate(fi.scopes):
            if s.owner == symbol and s.kind == CLASS:
                return i
        return -1

    def member(self, value: Value, name: str, depth: int = 0, seen: set[tuple[str, int]] | None = None) -> Key | None:
        if depth > MAX_DEPTH:
            return None
        if value.kind == "external":
            return Key(value.path, EXTERNAL, name)
        if value.kind == "module":
            return self.member_of_module(value.path, name, depth + 1)
        if value.kind in ("function", "callable"):
            return None
        if value.kind == "items":  # a member of the container, not of what it holds
            return Key(BUILTINS + ".list()", EXTERNAL, name)
        fi = self.ix.files.get(value.path)
        if fi is None or value.symbol < 0:
            return None
        seen = seen if seen is not None else set()
        if (value.path, value.symbol) in seen:
            return None
        seen.add((value.path, value.symbol))
        scope = self.class_scope(fi, value.symbol)
        if scope >= 0 and (scope, name) in self.ix.bindings(value.path) and value.kind != "super":
            return Key(value.path, scope, name)
        cls = fi.symbols[value.symbol]
        for base in cls.bases:
            base_value = self.eval_dotted(value.path, base, cls.start, depth + 1)
            if base_value is not None and base_value.kind in ("class", "instance"):
                key = self.member(base_value, name, depth + 1, seen)
                if key is not None:
                    return key
        return None

