"""Receivers that surely have no type: where a type checker could not know what `x` is
either (an untyped parameter without default, a member missing on a module or a class
whose bases are all known, a variable whose every value is such a dead end), so a member
used on it names nothing — not even the only workspace member of that name. A mixin of
Resolver over Values. Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

from agentls.analysis.keys import MAX_DEPTH, Key, Value
from agentls.analysis.values import Values


class DeadEnds(Values):
    def unknowable(self, path: str, occ: int) -> bool:
        """Whether a member use's receiver surely has no type, so it names no member (see
        `dead_end`): such a use is no reference even of the only member of its name."""
        table = self.state.ensure_occurrences(path)
        recv = table.recv[occ]
        return recv >= 0 and self.dead_end(path, table.names[recv], table.start[occ])

    def dead_end(self, path: str, text: str, offset: int, depth: int = 0) -> bool:
        """Whether a dotted receiver surely has no workspace type a type checker would know,
        so a member on it names no workspace member: its first name is a parameter with
        neither annotation nor default (a pytest fixture) or is annotated with an outside
        class, or a step names a member that a workspace module, or a class whose bases
        are all known, does not have."""
        parts = text.split(".")
        first = parts[0].removesuffix("()")
        spec = self.state.spec(path)
        if spec is not None and first in spec.self_names:
            value = self.enclosing_class(path, offset)
        else:
            key = self.lookup(path, first, offset)
            if key is None:
                return False
            syms = self.reaching(key, path, offset)
            if self._bare_parameter(key, syms) or (depth < 3 and self._dead_value(key, syms, depth + 1)):
                return True
            value = self.value_of(key, 0, syms)
            if value is None and self._outside_type(key, syms):
                return True
        value = self._called(value) if parts[0].endswith("()") else value
        for part in parts[1:]:
            if value is None or value.kind == "external":
                return False
            key = self.member(value, part.removesuffix("()"))
            if key is None:
                return self._closed(value)
            value = self.value_of(key)
            value = self._called(value) if part.endswith("()") else value
        return False

    def _outside_type(self, key: Key, reaching: list[int]) -> bool:
        """A name annotated with a class from outside the workspace (`scope: Mapping[str,
        Any]`, `x: t.Any`): its members are not the workspace's."""
        fi = self.state.files.get(key.path)
        if fi is None or key.scope < 0:
            return False
        for i in reaching:
            s = fi.symbols[i]
            if s.value and not s.value.startswith(("=", "%", "*", "@", "->", "^")):
                v = self.eval_dotted(key.path, s.value.removesuffix("[]"), max(s.start - 1, 0))
                if v is not None and v.kind == "external":
                    return True
        return False

    def _dead_value(self, key: Key, reaching: list[int], depth: int) -> bool:
        """A variable every hint of which is a dead end (`app = current_app._missing()`)."""
        fi = self.state.files.get(key.path)
        if fi is None or key.scope < 0:
            return False
        syms = [fi.symbols[i] for i in reaching]
        if not syms or any(not s.value or s.value.startswith(("->", "@", "%", "*", "^")) or s.kind not in ("variable", "field", "attribute") for s in syms):
            return False
        return all(self.dead_end(key.path, s.value.removeprefix("="), max(s.start - 1, 0), depth) for s in syms)

    def _bare_parameter(self, key: Key, reaching: list[int]) -> bool:
        fi = self.state.files.get(key.path)
        if fi is None or key.scope < 0:
            return False
        owner = fi.scopes[key.scope].owner  # a named function's: a lambda's or an arrow
        if owner < 0 or fi.symbols[owner].kind not in ("function", "method"):  # callback's
            return False  # parameters are typed from the call they are passed to
        syms = [fi.symbols[i] for i in reaching]
        # a parameter node that starts at its name and ends after it has a default
        return bool(syms) and all(s.kind == "parameter" and not s.value and not (s.start == s.sel_start and s.end > s.sel_end) for s in syms)

    def _closed(self, value: Value, depth: int = 0) -> bool:
        """A module without `__getattr__` or unresolved star imports, or a class whose
        bases all evaluate (a member not found there is not anywhere)."""
        fi = self.state.files.get(value.path)
        if fi is None or depth > MAX_DEPTH:
            return False
        if value.kind == "module":
            if (0, "__getattr__") in self.state.bindings(value.path):
                return False
            return all(not imp.star or self.module_file(value.path, imp.module) for imp in fi.imports)
        if value.symbol < 0 or value.kind in ("function", "callable"):
            return False
        scope = self.class_scope(fi, value.symbol)
        if scope >= 0 and ((scope, "__getattr__") in self.state.bindings(value.path) or (scope, "__getattribute__") in self.state.bindings(value.path)):
            return False
        cls = fi.symbols[value.symbol]
        for base in cls.bases:
            base_value = self.eval_dotted(value.path, base, cls.start, depth + 1)
            if base_value is None or base_value.kind not in ("class", "instance") or not self._closed(base_value, depth + 1):
                return False
        return True
