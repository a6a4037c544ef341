"""The workspace as a goal reading needs it (`Facts`), from the run's code index and a
bounded walk of its files.

`defined(name)`: the files whose module or class level defines `name` (the index's
definitions by name); `used(name)`: a file of the index holds the word, or — for names in
no analysed file (a config file, a template, another language) — a bounded text scan
finds it. A walk that stops at `MAX_WALKED` files is incomplete: no file is then taken as
missing and no name as unknown.
Must not know: the loop, models, LSP.
"""

from __future__ import annotations

import ast
import functools
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from agentls.tools.base import ToolContext
from agentls.tools.code.index_access import workspace_index
from agentls.workspace import FileWalker

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex

log = logging.getLogger(__name__)

MAX_WALKED = 2000
#: Reading the workspace's text for a name no analysed file holds: per file, and in all.
TEXT_SCAN_FILE_BYTES = 1_000_000
TEXT_SCAN_BYTES = 50_000_000


class WorkspaceFacts:
    """`goal.names.Facts` over a run's workspace (see the module docstring)."""

    def __init__(self, ctx: ToolContext) -> None:
        self.root: Path = ctx.workspace.root
        walked = [p for _, p in zip(range(MAX_WALKED + 1), FileWalker(self.root).walk(), strict=False)]
        self.complete = len(walked) <= MAX_WALKED
        self.paths = walked[:MAX_WALKED]
        self._index: WorkspaceIndex | None = None
        self._defs: dict[str, list[tuple[str, int]]] = {}
        try:
            self._index = workspace_index(ctx)
            self._defs = self._index.defs_by_name()
        except Exception as exc:  # the reading helps; it must never stop a run
            log.warning("the goal is read without the code index: %s", exc)

    def defined(self, name: str) -> list[str]:
        return sorted({path for path, _ in self._defs.get(name, ())})

    @functools.cache  # noqa: B019 - one instance per run
    def used(self, name: str) -> bool:
        if self._index is not None and self._index.files_with_word(name):
            return True
        return self._in_text(name)

    def _in_text(self, name: str) -> bool:
        if not self.complete:
            return True  # a file not walked may hold it: no verdict
        pattern = re.compile(rf"\b{re.escape(name)}\b".encode())
        budget = TEXT_SCAN_BYTES
        analysed = set(self._index.files) if self._index is not None else set()
        for rel in self.paths:
            if rel in analysed:
                continue
            try:
                data = (self.root / rel).read_bytes()[:TEXT_SCAN_FILE_BYTES]
            except OSError:
                continue
            budget -= len(data)
            if pattern.search(data):
                return True
            if budget <= 0:
                return True  # too much to read: no verdict
        return False

    def mentioning(self, name: str) -> list[str]:
        return sorted(self._index.files_with_word(name)) if self._index is not None else []

    @functools.cache  # noqa: B019 - one instance per run
    def stub(self, name: str) -> bool:
        """Whether a Python function `name` is defined with a stub body only (a docstring,
        `pass`, `...`, `raise NotImplementedError`, a TODO)."""
        for rel in self.defined(name):
            if not rel.endswith(".py"):
                continue
            try:
                tree = ast.parse((self.root / rel).read_text(encoding="utf-8"))
            except (OSError, SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                    return all(_stub_statement(st) for st in node.body)
        return False


def _stub_statement(st: ast.stmt) -> bool:
    if isinstance(st, ast.Pass):
        return True
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
        return st.value.value is Ellipsis or isinstance(st.value.value, str)  # ..., a docstring
    if isinstance(st, ast.Raise) and st.exc is not None:
        target = st.exc.func if isinstance(st.exc, ast.Call) else st.exc
        return isinstance(target, ast.Name) and target.id == "NotImplementedError"
    return False
