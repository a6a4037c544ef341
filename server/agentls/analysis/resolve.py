"""Name resolution over the index: which binding an occurrence names.

A binding is a Key `(path, scope, name)`; a module is `(path, -1, "")`. Plain names go
through the scope chain (class bodies are seen only from directly inside them, and only
where the language says so), then star imports. Imports are followed across files
(re-exports through `__init__.py` or `export … from`). Members (`a.b.c`, `self.x`,
`this.x`) resolve their receiver to a module, a class or an instance (from `x = Foo()`,
`x: Foo`, `new Foo()`), then look the member up, walking base classes by name.
Must not know: tree-sitter, LSP, how files are read.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Any

from agentls.analysis.callbacks import argument_value
from agentls.analysis.deadends import DeadEnds
from agentls.analysis.keys import BUILTINS, EXTERNAL, MAX_DEPTH, Key, Value
from agentls.analysis.model import (
    CLASS,
    COMPLEX,
    DOC_PARAM,
    KEYWORD,
    PLAIN,
    FileIndex,
    Occurrences,
    Symbol,
    keyword_callee,
)

if TYPE_CHECKING:
    from agentls.analysis.view import IndexView

class Resolver(DeadEnds):
    def __init__(self, state: IndexView) -> None:
        self.state = state

    # --- scopes and bindings ------------------------------------------------------
    def innermost_scope(self, fi: FileIndex, offset: int) -> int:
        scopes = fi.scopes
        i = bisect_right(self.state.scope_starts(fi.path), offset) - 1
        while i > 0 and not (scopes[i].start <= offset < scopes[i].end):
            i = scopes[i].parent
        return max(i, 0)

    def lookup(self, path: str, name: str, offset: int, depth: int = 0) -> Key | None:
        """The binding a bare name at `offset` refers to (imports followed)."""
        fi = self.state.files.get(path)
        if fi is None:
            return None
        spec = self.state.spec(path)
        table = self.state.bindings(path)
        s = self.innermost_scope(fi, offset)
        first = True
        while s >= 0:
            scope = fi.scopes[s]
            visible = scope.kind != CLASS or (first and spec is not None and spec.class_body_sees_members)
            if (s, name) in table and (visible or self._type_parameter(fi, table[(s, name)])):
                return self._follow(path, s, name, offset, depth)
            s = scope.parent
            first = False
        for imp in fi.imports:
            if imp.star and not imp.reexport:
                target = self.module_file(path, imp.module)
                if target:
                    key = self.member_of_module(target, name, depth + 1, star=True)
                    if key is not None:
                        return key
        if spec is not None:
            if name in spec.module_names:
                return Key(path, -1, "")
            if name in spec.builtins:
                return Key(BUILTINS, EXTERNAL, name)
        return None

    @staticmethod
    def _type_parameter(fi: FileIndex, syms: list[int]) -> bool:
        """A class's generic parameters are seen from inside it, unlike its members."""
        return any(fi.symbols[i].kind == "type_parameter" for i in syms)

    def _follow(self, path: str, scope: int, name: str, offset: int, depth: int) -> Key | None:
        fi = self.state.files[path]
        syms = self.state.bindings(path)[(scope, name)]
        chosen = syms[0]
        for i in syms:
            if fi.symbols[i].sel_start <= offset:
                chosen = i
        sym = fi.symbols[chosen]
        if sym.kind == "import" and all(fi.symbols[i].kind == "import" for i in syms):
            return self.follow_import(path, sym, depth + 1) or Key(path, scope, name)
        return Key(path, scope, name)

    def follow_import(self, path: str, sym: Symbol, depth: int = 0) -> Key | None:
        if depth > MAX_DEPTH or sym.target < 0:
            return None
        fi = self.state.files[path]
        imp = fi.imports[sym.target]
        system = self.state.module_system(path)
        if system == "python":
            mods = self.state.py_modules
            absolute = mods.absolute(path, imp.module)
            if imp.name is None:
                if absolute is None:
                    return None
                wanted = absolute if imp.alias != absolute.split(".")[0] or "." not in absolute else absolute.split(".")[0]
                if imp.alias and imp.alias == absolute.split(".")[0]:
                    wanted = absolute.split(".")[0]
                target = mods.file_of(wanted)
                return Key(target, -1, "") if target else Key(wanted, EXTERNAL, "")
            base = mods.file_of(absolute)
            sub = mods.file_of(f"{absolute}.{imp.name}" if absolute else imp.name)
            if base is None and sub is None and absolute and not imp.module.startswith("."):
                return Key(absolute, EXTERNAL, imp.name)  # e.g. `from collections import deque`
            if base is None or base == path:  # `from . import util` inside the package
                return Key(sub, -1, "") if sub else None
            key = self.member_of_module(base, imp.name, depth + 1)
            return key if key is not None or not sub else Key(sub, -1, "")
        target = self.module_file(path, imp.module)
        if target is None:  # a package (`react`), not a broken relative path
            return None if imp.module.startswith(".") else Key(imp.module, EXTERNAL, imp.name or "")
        if imp.name is None:
            return Key(target, -1, "")
        return self.member_of_module(target, imp.name, depth + 1)

    def module_file(self, path: str, module: str) -> str | None:
        if self.state.module_system(path) == "python":
            mods = self.state.py_modules
            return mods.file_of(mods.absolute(path, module))
        return self.state.es_modules.resolve(path, module)

    def member_of_module(self, target: str, name: str, depth: int = 0, star: bool = False) -> Key | None:
        """A name exported by a module (following re-exports), or a submodule."""
        if depth > MAX_DEPTH:
            return None
        fi = self.state.files.get(target)
        if fi is None:
            return None
        system = self.state.module_system(target)
        table = self.state.bindings(target)
        if system == "python":
            spec = self.state.spec(target)
            if star and spec is not None and spec.hidden_prefix and name.startswith(spec.hidden_prefix):
                return None
            if (0, name) in table:
                return self._follow(target, 0, name, fi.size, depth)
            mods = self.state.py_modules
            pkg = mods.name_of.get(target)
            if pkg is not None and mods.is_package(target):
                sub = mods.file_of(f"{pkg}.{name}")
                if sub:
                    return Key(sub, -1, "")
            for imp in fi.imports:
                if imp.star:
                    t = self.module_file(target, imp.module)
                    if t and t != target:
                        key = self.member_of_module(t, name, depth + 1, star=True)
                        if key:
                            return key
            return None
        # ES modules: explicit export lists, exported declarations, re-exports
        local = name
        for exp in fi.exports:
            if exp.name == name:
                local = exp.local
                break
        else:
            if name == "default":
                return None if not any(e.name == "default" for e in fi.exports) else None
        if (0, local) in table:
            return self._follow(target, 0, local, fi.size, depth)
        for imp in fi.imports:
            if imp.reexport and not imp.star and (imp.alias or imp.name) == name:
                t = self.module_file(target, imp.module)
                if t and imp.name is None:  # `export * as ns from "./m"`
                    return Key(t, -1, "")
                if t:
                    return self.member_of_module(t, imp.name or name, depth + 1)
        for imp in fi.imports:
            if imp.reexport and imp.star:
                t = self.module_file(target, imp.module)
                if t and t != target:
                    key = self.member_of_module(t, name, depth + 1)
                    if key:
                        return key
        return None

    # --- occurrences -----------------------------------------------------------------
    def occurrence_at(self, occ: Occurrences, offset: int) -> int:
        """Index of the occurrence covering `offset` (its end included), or -1."""
        i = bisect_right(occ.start, offset) - 1
        for j in (i, i - 1):
            if 0 <= j < len(occ.start):
                start = occ.start[j]
                if start <= offset <= start + len(occ.text(j).encode("utf-8")):
                    return j
        return -1

    def resolve_occurrence(
        self, path: str, occ: int, memo: dict[Any, Any] | None = None, table: Occurrences | None = None
    ) -> Key | None:
        """The binding occurrence `occ` of `path` names. `memo` (one per file and question)
        keeps what a name or a receiver resolved to in each scope: within a scope they
        resolve alike, and a common name is resolved thousands of times per question."""
        fi = self.state.files[path]
        if table is None:
            table = self.state.ensure_occurrences(path)
        name = table.text(occ)
        start = table.start[occ]
        recv = table.recv[occ]
        site = self.state.def_sites(path).get(start)
        if site is not None:
            sym = fi.symbols[site]
            if sym.kind == "import":
                return self.follow_import(path, sym) or Key(path, sym.scope, sym.name)
            own = Key(path, sym.scope, sym.name)
            owner = fi.scopes[sym.scope].owner
            if sym.kind == "attribute" and owner >= 0 and self.assigned_only(own):  # `this.x = …` of a base's x
                return self.member(Value("instance", path, owner), sym.name) or own
            return own
        if recv == PLAIN:
            imp_key = self._in_import(path, fi, start, name)
            if imp_key is not False:
                return imp_key  # type: ignore[return-value]
            if memo is not None:
                mk = (self.innermost_scope(fi, start), name)
                if mk in memo:
                    return memo[mk]
                key = self.lookup(path, name, start)
                memo[mk] = key
                return key
            return self.lookup(path, name, start)
        if recv == COMPLEX:
            return None
        if recv == DOC_PARAM:  # the parameter of the function the comment documents
            starts = self.state.scope_starts(path)
            i = bisect_right(starts, start)
            for scope in (i, i + 1):  # `const f = (x) => …` opens a block, then the function
                if scope < len(starts) and (scope, name) in self.state.bindings(path):
                    return Key(path, scope, name)
            return None
        if recv <= KEYWORD:
            return self.keyword_parameter(path, table.names[keyword_callee(recv)], name, start)
        text = table.names[recv]
        if memo is None:
            value = argument_value(self, path, text, start) if "(@" in text else self.eval_dotted(path, text, start)
            return self.member(value, name) if value is not None else None
        scope = self.innermost_scope(fi, start)
        first = text.partition(".")[0].removesuffix("()")
        member_key = (scope, recv, name, self.flow_mark(path, fi, scope, first, start))  # the assignment that reaches
        if member_key in memo:
            return memo[member_key]  # type: ignore[no-any-return]
        value = argument_value(self, path, text, start) if "(@" in text else self.eval_dotted(path, text, start)
        memo[member_key] = key = self.member(value, name) if value is not None else None
        return key

    def _in_import(self, path: str, fi: FileIndex, start: int, name: str) -> Key | None | bool:
        """What an identifier inside an import statement names: a module of its path (one
        outside the workspace too: `contextlib` in `from contextlib import x`), or the
        imported name (`a` in `from m import a as b`); False when not in an import."""
        starts, order = self.state.import_spans(path)
        j = bisect_right(starts, start) - 1
        if j < 0:
            return False
        first = starts[j]  # the records of one statement share its range; statements do not nest
        candidates = []
        while j >= 0 and starts[j] == first:
            candidates.append(order[j])
            j -= 1
        python = None
        for i in sorted(candidates):
            imp = fi.imports[i]
            if not imp.start <= start < imp.end:
                continue
            if python is None:
                python = self.state.module_system(path) == "python"
            parts = [p for p in imp.module.lstrip(".").split(".") if p] if python else []
            k = -1
            if parts and imp.name is not None:  # `from a.b import c`: the first tokens are a.b
                occ_starts = self.state.ensure_occurrences(path).start
                k = bisect_left(occ_starts, start) - bisect_left(occ_starts, imp.start)
                in_module = k < len(parts) and parts[k] == name
            else:
                in_module = name in parts
            if not in_module:
                if imp.name == name and imp.symbol >= 0 and not imp.reexport and fi.symbols[imp.symbol].sel_start != start:
                    return self.follow_import(path, fi.symbols[imp.symbol])
                if imp.reexport and (imp.name == name or imp.alias == name):
                    t = self.module_file(path, imp.module)
                    return self.member_of_module(t, imp.name or name) if t else None
                continue
            prefix = imp.module[: len(imp.module) - len(imp.module.lstrip("."))]
            dotted = prefix + ".".join(parts[: (k if k >= 0 else parts.index(name)) + 1])
            target = self.module_file(path, dotted)
            if target:
                return Key(target, -1, "")
            return None if prefix else Key(dotted, EXTERNAL, "")
        return False
