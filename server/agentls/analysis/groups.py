"""Member groups for references: a class member, the same-named members of the classes
and interfaces it extends or implements (transitively), and the members of other
classes that share one of those, are one reference group — as the TypeScript language
service groups them (`Subscriber.complete` with `Observer.complete`, and through it
`Subject.complete` when `Subject` implements `Observer` too). Precisely: members A and B
are grouped when the members above A (A itself included) and the members above B meet.
Definition keeps the declaration itself; only references use groups.
Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentls.analysis.keys import MAX_DEPTH, Key
from agentls.analysis.model import CLASS

if TYPE_CHECKING:
    from agentls.analysis.readonly import ReadOnlyState

Cls = tuple[str, int]  # (path, symbol index) of a class or interface


class Groups:
    """One question's worth of memoised base walks (the index may change between questions)."""

    def __init__(self, state: ReadOnlyState) -> None:
        self.state = state
        self._bases: dict[Cls, list[Cls]] = {}
        self._above: dict[Cls, frozenset[Cls]] = {}

    def owner(self, key: Key) -> Cls | None:
        """The class or interface whose body binds `key`, if it is a member."""
        if key.scope < 0:
            return None
        fi = self.state.files.get(key.path)
        if fi is None or key.scope >= len(fi.scopes):
            return None
        scope = fi.scopes[key.scope]
        if scope.kind != CLASS or scope.owner < 0:
            return None
        syms = self.state.bindings(key.path).get((key.scope, key.name), [])
        if not syms or any(fi.symbols[i].kind == "type_parameter" for i in syms):
            return None  # a class's generic parameter is its own, not a member
        return (key.path, scope.owner)

    def bases(self, cls: Cls) -> list[Cls]:
        got = self._bases.get(cls)
        if got is None:
            got = []
            path, i = cls
            sym = self.state.files[path].symbols[i]
            for text in sym.bases:
                value = self.state.resolver.eval_dotted(path, text, sym.start)
                if value is not None and value.kind in ("class", "instance") and value.symbol >= 0:
                    got.append((value.path, value.symbol))
            self._bases[cls] = got
        return got

    def above(self, cls: Cls) -> frozenset[Cls]:
        """The class itself and every class or interface it extends or implements."""
        got = self._above.get(cls)
        if got is None:
            seen: set[Cls] = set()
            todo = [(cls, 0)]
            while todo:
                c, depth = todo.pop()
                if c in seen or depth > MAX_DEPTH:
                    continue
                seen.add(c)
                todo.extend((b, depth + 1) for b in self.bases(c))
            got = self._above[cls] = frozenset(seen)
        return got

    def declares(self, cls: Cls, name: str) -> Key | None:
        path, i = cls
        fi = self.state.files[path]
        scope = self.state.resolver.class_scope(fi, i)
        key = Key(path, scope, name)
        if scope >= 0 and (scope, name) in self.state.bindings(path) and self.owner(key) is not None:
            return key
        return None

    def members_above(self, key: Key) -> set[Key]:
        cls = self.owner(key)
        if cls is None:
            return {key}
        out = {key}
        for c in self.above(cls):
            k = self.declares(c, key.name)
            if k is not None:
                out.add(k)
        return out

    def group(self, key: Key) -> set[Key]:
        """Every member key grouped with `key` (just `key` when it is not a class member,
        or when its language's reference tools do not group: language.json
        `member_groups` — the TS service groups, jedi and pyright do not)."""
        spec = self.state.spec(key.path)
        if spec is None or not spec.options.get("member_groups", False) or self.owner(key) is None:
            return {key}
        mine = self.members_above(key)
        out = set(mine)
        for path, i in self.state.defs_by_name().get(key.name, []):
            fi = self.state.files[path]
            other = Key(path, fi.symbols[i].scope, key.name)
            if other in out or self.owner(other) is None:
                continue
            if self.members_above(other) & mine:
                out.add(other)
        return out

    def sole_member(self, name: str) -> Key | None:
        """The class or interface member of that name when the workspace has exactly one
        (assigned in several places or not), and it is not an overloaded method: then a
        member use whose receiver does not resolve can hardly mean another. (Overloads
        mostly mirror a built-in API: `Observable.forEach` and `array.forEach`.)"""
        found = [(p, i) for p, i in self.state.defs_by_name().get(name, []) if self.owner(Key(p, self.state.files[p].symbols[i].scope, name)) is not None]
        keys = {Key(p, self.state.files[p].symbols[i].scope, name) for p, i in found}
        if len(keys) != 1:
            return None
        functions = sum(1 for p, i in found if self.state.files[p].symbols[i].kind in ("function", "method"))
        return None if functions > 1 else keys.pop()
