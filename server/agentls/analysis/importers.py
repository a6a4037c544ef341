"""Which files can name a module-level binding of a file: the file itself, the files
that import it, the files that import those (a name imported can be re-exported), and —
for a Python module reached as an attribute of a package it is not imported by
(`import pkg` then `pkg.mod.x`) — the files that import one of its packages and hold the
module's own name as a word. A superset of the files whose uses resolve to the binding,
and on a large project a far smaller one than "every file holding the word": a test
module's `x` is searched in that module, not in the 900 files of sympy that say `x`.

Built on first use per module system state (files added or removed rebuild it); a file
whose content changes is folded in again at the next question.
Must not know: LSP, tools.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentls.analysis.modules import PythonModules
    from agentls.analysis.view import IndexView


class Importers:
    def __init__(self) -> None:
        self._state: tuple[object, object] | None = None
        self._targets: dict[str, set[str]] = {}  # file -> the files its imports name
        self._reverse: dict[str, set[str]] = {}  # file -> the files importing it
        self._dirty: set[str] = set()
        # (absolute module, imported name) → the files it names, for this module map
        self._memo: dict[tuple[str, str | None], tuple[str, ...]] = {}

    def touch(self, path: str) -> None:
        if self._state is not None:
            self._dirty.add(path)

    def reset(self) -> None:
        self._state = None

    def candidates(self, state: IndexView, path: str) -> set[str]:
        """`path` and every file that imports it, directly or through importers."""
        self.refresh(state)
        seen = {path}
        queue = deque([path])
        while queue:
            for importer in self._reverse.get(queue.popleft(), ()):
                if importer not in seen:
                    seen.add(importer)
                    queue.append(importer)
        if state.module_system(path) == "python":
            seen |= self._through_packages(state, path)
        return seen

    def _through_packages(self, state: IndexView, path: str) -> set[str]:
        """Files importing a package above `path` and naming `path`'s module (`pkg.mod`)."""
        mods = state.py_modules
        name = mods.name_of.get(path)
        if not name or "." not in name:
            return set()
        own = name.rsplit(".", 1)[1]
        naming = state.files_with_word(own)
        out: set[str] = set()
        package = name
        while "." in package:
            package = package.rsplit(".", 1)[0]
            init = mods.file_of(package)
            if init:
                out |= {f for f in self._reverse.get(init, ()) if f in naming}
        return out

    # --- the import map ----------------------------------------------------------------
    def refresh(self, state: IndexView) -> None:
        """Bring the import map up to date (built whole on first use or when files come
        or go; a changed file folded in again)."""
        maps = (state.py_modules, state.es_modules)
        if self._state is None or self._state[0] is not maps[0] or self._state[1] is not maps[1]:
            self._state = maps
            self._targets, self._reverse, self._dirty, self._memo = {}, {}, set(), {}
            for path in state.files:
                self._add(state, path)
            return
        dirty, self._dirty = self._dirty, set()
        for path in dirty:
            for target in self._targets.pop(path, ()):
                self._reverse.get(target, set()).discard(path)
            if path in state.files:
                self._add(state, path)

    def _add(self, state: IndexView, path: str) -> None:
        targets: set[str] = set()
        fi = state.files[path]
        if state.module_system(path) == "python":
            mods = state.py_modules
            memo = self._memo
            for imp in fi.imports:
                absolute = mods.absolute(path, imp.module)
                if absolute is None:
                    continue
                found = memo.get((absolute, imp.name))
                if found is None:
                    found = memo[(absolute, imp.name)] = self._python_targets(mods, absolute, imp.name)
                targets.update(found)
        else:
            for imp in fi.imports:
                target = state.es_modules.resolve(path, imp.module)
                if target:
                    targets.add(target)
        targets.discard(path)
        self._targets[path] = targets
        for target in targets:
            self._reverse.setdefault(target, set()).add(path)

    @staticmethod
    def _python_targets(mods: PythonModules, absolute: str, name: str | None) -> tuple[str, ...]:
        """The files `from absolute import name` (or `import absolute`) names: the module,
        the submodule `name`, and the packages on the way (`import a.b.c` binds `a`)."""
        out = []
        found = mods.file_of(absolute)
        if found:
            out.append(found)
        if name is not None:
            sub = mods.file_of(f"{absolute}.{name}" if absolute else name)
            if sub:
                out.append(sub)
        parts = absolute.split(".")
        for k in range(1, len(parts)):
            above = mods.file_of(".".join(parts[:k]))
            if above:
                out.append(above)
        return tuple(out)
