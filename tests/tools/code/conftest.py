"""A small fixture workspace (three Python files that import each other, two TypeScript
files) with one index built for the whole module, and helpers to call the code tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentls.analysis.index import WorkspaceIndex
from agentls.tools.base import Tool, ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.workspace import Workspace

FILES = {
    "pkg/__init__.py": "",
    "pkg/util.py": (
        '"""Helpers."""\n'
        "\n"
        "\n"
        "def helper(x: int) -> int:\n"
        '    """Double it."""\n'
        "    return x * 2\n"
        "\n"
        "\n"
        "class Greeter:\n"
        "    def greet(self, name: str) -> str:\n"
        '        return f"hi {name}"\n'
    ),
    "pkg/main.py": (
        "from pkg.util import Greeter, helper\n"
        "\n"
        "\n"
        "def run() -> int:\n"
        "    g = Greeter()\n"
        '    g.greet("a")\n'
        "    return helper(2) + helper(3)\n"
    ),
    "app.py": "from pkg import main\n\nprint(main.run())\n",
    "web/index.ts": (
        'import { add } from "./math";\n'
        "\n"
        "export function total(xs: number[]): number {\n"
        "  return xs.reduce(add, 0);\n"
        "}\n"
    ),
    "web/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "README.md": "# Fixture\n",
}


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, WorkspaceIndex]:
    root = tmp_path_factory.mktemp("code")
    write_files(root, FILES)
    workspace = Workspace(root)
    index = WorkspaceIndex(root, workspace=workspace, jobs=1, cache_dir=False)
    index.build()
    return workspace, index


@pytest.fixture
def ctx(shared: tuple[Workspace, WorkspaceIndex]) -> ToolContext:
    """A context over the shared, read-only fixture workspace and its index."""
    workspace, index = shared
    return ToolContext(workspace=workspace, permissions=PermissionSet.for_mode("dev"), index=index)


@pytest.fixture
def fresh_ctx(tmp_path: Path) -> ToolContext:
    """A context over a private copy of the fixture, with no index yet (tests may edit it)."""
    write_files(tmp_path, FILES)
    return ToolContext(workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode("dev"))


@pytest.fixture
def call() -> Callable[..., Any]:
    """`call(Tool, ctx, **raw)`: validate the raw input and execute the tool directly."""

    def run(tool: type[Tool], ctx: ToolContext, **raw: Any) -> Any:
        return tool().execute(tool.Input(**raw), ctx)

    return run
