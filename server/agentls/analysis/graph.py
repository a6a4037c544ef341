"""The module-level dependency graph: Python modules, TypeScript/JavaScript files.

Edges are internal imports only (both ends in the workspace). Python follows grimp's
convention: `from pkg import name` is an edge to `pkg.name` when that is a module, else
to `pkg`. Renders as JSON, DOT and Mermaid. Must not know: LSP, tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentls.analysis.modules import PythonModules
    from agentls.analysis.readonly import ReadOnlyState


@dataclass
class DependencyGraph:
    nodes: list[str] = field(default_factory=list)
    edges: list[tuple[str, str]] = field(default_factory=list)

    def adjacency(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {n: set() for n in self.nodes}
        for a, b in self.edges:
            out.setdefault(a, set()).add(b)
        return out

    def to_json(self) -> dict[str, object]:
        return {"nodes": self.nodes, "edges": [{"from": a, "to": b} for a, b in self.edges]}

    def to_dot(self) -> str:
        lines = ["digraph dependencies {", "  rankdir=LR;"]
        lines += [f"  {json.dumps(n)};" for n in self.nodes]
        lines += [f"  {json.dumps(a)} -> {json.dumps(b)};" for a, b in self.edges]
        return "\n".join([*lines, "}"])

    def to_mermaid(self) -> str:
        ids = {n: f"n{i}" for i, n in enumerate(self.nodes)}

        def label(n: str) -> str:
            return re.sub(r'["\[\]]', "_", n)

        lines = ["graph LR"]
        lines += [f'  {ids[n]}["{label(n)}"]' for n in self.nodes]
        lines += [f"  {ids[a]} --> {ids[b]}" for a, b in self.edges]
        return "\n".join(lines)


def _existing(mods: PythonModules, name: str, ancestors: bool) -> str | None:
    """`name` if it is a workspace module; for `import a.b.c` of a missing `c`, the
    nearest existing ancestor (as grimp records it)."""
    while name:
        f = mods.file_of(name)
        if f and mods.name_of.get(f) == name:
            return name
        if not ancestors or "." not in name:
            return None
        name = name.rpartition(".")[0]
    return None


def build_graph(state: ReadOnlyState, path: str | None, language: str | None = None) -> DependencyGraph:
    """The graph of the whole workspace, or of the files under `path` (a file or folder)."""
    edges: set[tuple[str, str]] = set()
    nodes: set[str] = set()
    mods = state.py_modules
    for rel, fi in state.files.items():
        if path and path != "." and not (rel == path or rel.startswith(path.rstrip("/") + "/")):
            continue
        system = state.module_system(rel)
        if language == "python" and system != "python":
            continue
        if system == "python":
            src = mods.name_of.get(rel)
            if src is None:
                continue
            nodes.add(src)
            for imp in fi.imports:
                absolute = mods.absolute(rel, imp.module)
                if absolute is None:
                    continue
                target = None
                if imp.name is not None and not imp.star:
                    sub = f"{absolute}.{imp.name}" if absolute else imp.name
                    if mods.file_of(sub) and mods.name_of.get(mods.file_of(sub) or "") == sub:
                        target = sub
                if target is None:
                    target = _existing(mods, absolute, ancestors=imp.name is None and not imp.star)
                if target:  # self-imports count, as in grimp
                    edges.add((src, target))
        else:
            nodes.add(rel)
            for imp in fi.imports:
                target = state.es_modules.resolve(rel, imp.module)
                if target and target != rel:
                    edges.add((rel, target))
    nodes.update(b for _, b in edges)
    return DependencyGraph(sorted(nodes), sorted(edges))
