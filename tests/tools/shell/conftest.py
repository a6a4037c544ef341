"""Contexts for the shell tools on a temp workspace, under either sandbox kind."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.sandbox import SandboxConfig, bubblewrap_status
from agentls.workspace import Workspace

# Installed is not enough: bwrap also needs user namespaces (some CI kernels restrict them).
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None or bubblewrap_status()[0] is None,
    reason=f"bubblewrap unusable here: {bubblewrap_status()[1]}",
)


@pytest.fixture(params=[pytest.param("bubblewrap", marks=needs_bwrap), "none"])
def kind(request: pytest.FixtureRequest) -> str:
    """Both sandbox kinds: the test runs once under bubblewrap and once without."""
    return str(request.param)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def shell_ctx(ws: Path) -> Callable[..., ToolContext]:
    def make(kind: str = "none", mode: str = "full", **kwargs: Any) -> ToolContext:
        return ToolContext(
            workspace=kwargs.pop("workspace", None) or Workspace(ws),
            permissions=PermissionSet.for_mode(mode),
            sandbox=SandboxConfig(kind=kind),  # type: ignore[arg-type]
            **kwargs,
        )

    return make


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def write() -> Callable[[Path, dict[str, str]], None]:
    """Write {relative path: text} under a root."""
    return write_tree
