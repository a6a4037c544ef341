"""Receivers and members: what `a.b.c`, `self.x`, `Foo().m` evaluate to (a module, a
class, an instance, or something outside the workspace), and the member a name picks
there, walking base classes by name. A mixin of Resolver (scope lookups live there).
Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from agentls.analysis.callbacks import callback_parameter, is_callback_hint
from agentls.analysis.hinted import HintedValues
from agentls.analysis.hints import returns
from agentls.analysis.keys import BUILTINS, EXTERNAL, MAX_DEPTH, Key, Value
from agentls.analysis.model import CLASS, FileIndex

FUNCTIONS = frozenset({"function", "method"})

if TYPE_CHECKING:
    from agentls.analysis.view import IndexView


#: Entries of the answer cache before it starts over (a few hundred bytes each).
CACHE_LIMIT = 50_000
T = TypeVar("T")


class Values(HintedValues):
    """What receivers evaluate to. `value_of`, `member` and `eval_dotted` answer from a
    cache valid for one index generation (any edit clears it): they are pure functions of
    the index (`eval_dotted` of the scope its offset is in), and a reference search asks
    them the same thing thousands of times (`self.args` through sympy's class tree). A
    result found is good at any depth; "nothing" found at depth d is good for calls at
    depth ≥ d (less budget cannot find more), not for shallower ones."""

    state: IndexView
    _cache: dict[tuple[object, ...], tuple[object, int]]
    _cache_generation: int

    def _cached(self) -> dict[tuple[object, ...], tuple[object, int]]:
        cache = getattr(self, "_cache", None)
        if cache is None or self._cache_generation != self.state.generation or len(cache) > CACHE_LIMIT:
            cache = self._cache = {}
            self._cache_generation = self.state.generation
        return cache

    def _through_cache(self, ck: tuple[object, ...], depth: int, compute: Callable[[], T]) -> T:
        cache = self._cached()
        entry = cache.get(ck)
        if entry is not None:
            found, found_at = entry
            if found is not None or depth >= found_at:
                return found  # type: ignore[return-value]
        result = compute()
        cache[ck] = (result, depth)
        return result

    def lookup(self, path: str, name: str, offset: int, depth: int = 0) -> Key | None:
        raise NotImplementedError

    def member_of_module(self, target: str, name: str, depth: int = 0, star: bool = False) -> Key | None:
        raise NotImplementedError

    def module_file(self, path: str, module: str) -> str | None:
        raise NotImplementedError

    def innermost_scope(self, fi: FileIndex, offset: int) -> int:
        raise NotImplementedError

    def value_of(self, key: Key, depth: int = 0, syms: list[int] | None = None) -> Value | None:
        """What a binding evaluates to; `syms`: only those of its symbols (`reaching`)."""
        if depth > MAX_DEPTH:
            return None
        return self._through_cache(("v", key, tuple(syms) if syms else None), depth, lambda: self._value_of(key, depth, syms))

    def _value_of(self, key: Key, depth: int, syms: list[int] | None) -> Value | None:
        if key.scope == EXTERNAL:
            return Value("external", f"{key.path}.{key.name}" if key.name else key.path)
        if key.scope == -1:
            return Value("module", key.path)
        fi = self.state.files.get(key.path)
        if fi is None:
            return None
        if not syms:
            syms = self.state.bindings(key.path).get((key.scope, key.name), [])
        for i in syms:
            sym = fi.symbols[i]
            if sym.kind in ("class", "interface"):
                return Value("class", key.path, i)
            if sym.kind == "module":
                return Value("module", key.path, i)
            if sym.value.startswith("@"):  # what its decorator makes of a function (hints.py)
                made = self._decorated(key.path, sym, depth + 1)
                if made is not None:
                    return made
            if sym.value.startswith("^"):  # a property: a value of its return type
                made = self._made(key.path, sym.value[1:], sym.start, depth + 1)
                if made is not None:
                    return made
        for i in syms:
            if fi.symbols[i].kind in FUNCTIONS or returns(fi.symbols[i].value):
                return Value("function", key.path, i)  # calling it gives its declared return type
        for i in syms:
            sym = fi.symbols[i]
            if not sym.value or sym.value.startswith(("@", "^")):
                continue
            at = max(sym.start - 1, 0)  # just before the statement: `x = x.parent` reads the earlier x
            if is_callback_hint(sym.value):
                v = callback_parameter(self, key.path, sym, depth + 1)
                if v is not None:
                    return v
            elif sym.value.startswith("%"):  # `for x in a.b`: an item of a.b
                v = self.eval_dotted(key.path, sym.value[1:], at, depth + 1)
                if v is not None and v.kind == "items":
                    return Value("instance", v.path, v.symbol)
            elif sym.value.startswith("*"):  # `x: list[Foo]`: a container of Foo
                v = self._made(key.path, sym.value, at, depth + 1)
                if v is not None:
                    return v
            elif sym.value.startswith("="):  # `x = a.b`: the value of a.b
                v = self.eval_dotted(key.path, sym.value[1:], at, depth + 1)
                if v is not None:
                    return v
            else:  # `x = Foo()`, `x: Foo`, `x = f()` with f's declared return type
                generic = sym.value.endswith("[]")  # `x: Foo[T]`
                v = self.eval_dotted(key.path, sym.value.removesuffix("[]"), at, depth + 1)
                if v is not None and v.kind == "class":
                    return Value("instance", v.path, v.symbol)
                if v is not None and v.kind == "instance":
                    return v  # `x = f()` with f's declared return type, `self = this`
                if v is not None and v.kind == "function":
                    return self._called(v, depth + 1)  # `x = self.make()`, `def make() -> Foo`
                if v is not None and v.kind == "external" and sym.value.endswith("()"):
                    return v  # what an outside callee returns, an instance of `T[]` (`Array()`)
                if v is not None and v.kind == "external" and not generic:
                    return self._called(v, depth + 1)  # `x: str` is a `str()`; an outside
                    # generic stays unknown (what `ContextVar[T].get()` returns is not read)
        return None

    def eval_dotted(self, path: str, text: str, offset: int, depth: int = 0) -> Value | None:
        if depth > MAX_DEPTH:
            return None
        fi = self.state.files.get(path)
        if fi is None:
            return None
        scope = self.innermost_scope(fi, offset)
        first = text.partition(".")[0].removesuffix("()")
        ck = ("e", path, scope, text, self.flow_mark(path, fi, scope, first, offset))  # the assignment that reaches
        return self._through_cache(ck, depth, lambda: self._eval_dotted(path, text, offset, depth))

    def _eval_dotted(self, path: str, text: str, offset: int, depth: int) -> Value | None:
        parts = text.split(".")
        first = parts[0]
        spec = self.state.spec(path)
        value: Value | None
        call = first.endswith("()")
        first = first.removesuffix("()")
        if spec is not None and parts[0] in spec.options.get("super_receivers", ()):
            cls = self.enclosing_class(path, offset)  # `super()`: the bases of the class
            value, call = (Value("super", cls.path, cls.symbol) if cls is not None else None), False
        elif spec is not None and first in spec.self_names:
            value = self.enclosing_class(path, offset)
        elif spec is not None and first in spec.options.get("super_names", ()):
            value, call = self.enclosing_base(path, offset, depth + 1), False  # `super.m`, `super().m`
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
        """Calling a class makes an instance; calling a function with a declared return type
        makes an instance of that type; other calls are not followed."""
        if value is None or depth > MAX_DEPTH:
            return None
        if value.kind == "external":
            return Value("external", value.path + "()")
        if value.kind in ("class", "callable"):
            return Value("instance", value.path, value.symbol)
        if value.kind == "function":
            sym = self.state.files[value.path].symbols[value.symbol]
            ret = returns(sym.value)  # Python's `-> Foo` (hints.py), TypeScript's plain type
            if ret:
                return self._made(value.path, ret[2:], sym.start, depth + 1)
            if sym.value and not sym.value.startswith("@"):
                v = self.eval_dotted(value.path, sym.value, sym.sel_start, depth + 1)
                return Value("instance", v.path, v.symbol) if v is not None and v.kind in ("class", "instance") else None
        return None

    def enclosing_base(self, path: str, offset: int, depth: int = 0) -> Value | None:
        """What `super` is inside a class's method: an instance of its first base."""
        this = self.enclosing_class(path, offset)
        if this is None:
            return None
        cls = self.state.files[path].symbols[this.symbol]
        for base in cls.bases[:1]:
            v = self.eval_dotted(path, base, cls.start, depth + 1)
            if v is not None and v.kind in ("class", "instance"):
                return Value("instance", v.path, v.symbol)
        return None

    def enclosing_class(self, path: str, offset: int) -> Value | None:
        fi = self.state.files[path]
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
        return self._through_cache(("m", value, name), depth, lambda: self._member(value, name, depth, seen))

    def _member(self, value: Value, name: str, depth: int, seen: set[tuple[str, int]] | None) -> Key | None:
        if value.kind == "external":
            return Key(value.path, EXTERNAL, name)
        if value.kind == "module":
            return self.member_of_module(value.path, name, depth + 1)
        if value.kind in ("function", "callable"):
            return None
        if value.kind == "items":  # a member of the container, not of what it holds
            return Key(BUILTINS + ".list()", EXTERNAL, name)
        fi = self.state.files.get(value.path)
        if fi is None or value.symbol < 0:
            return None
        seen = seen if seen is not None else set()
        if (value.path, value.symbol) in seen:
            return None
        seen.add((value.path, value.symbol))
        scope = self.class_scope(fi, value.symbol)
        own = Key(value.path, scope, name) if scope >= 0 and (scope, name) in self.state.bindings(value.path) and value.kind != "super" else None
        if own is not None and not self.assigned_only(own):
            return own
        cls = fi.symbols[value.symbol]
        for base in cls.bases:
            base_value = self.eval_dotted(value.path, base, cls.start, depth + 1)
            if base_value is not None and base_value.kind in ("class", "instance"):
                key = self.member(base_value, name, depth + 1, seen)
                if key is not None:
                    return key
        return own

    def assigned_only(self, key: Key) -> bool:
        """A member the class only assigns (`this.x = …`) where the language makes members
        declared (language.json `members_declared`): it is a base's member if a base has one."""
        spec = self.state.spec(key.path)
        if spec is None or not spec.options.get("members_declared"):
            return False
        fi = self.state.files[key.path]
        return all(fi.symbols[i].kind == "attribute" for i in self.state.bindings(key.path).get((key.scope, key.name), []))

