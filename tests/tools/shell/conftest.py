"""Contexts for the shell tools on a temp workspace, under each sandbox kind."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.sandbox import SandboxConfig, bubblewrap_status, landlock_status
from agentls.workspace import Workspace

# Installed is not enough: bwrap also needs user namespaces (some CI kernels restrict them).
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None or bubblewrap_status()[0] is None,
    reason=f"bubblewrap unusable here: {bubblewrap_status()[1]}",
)
needs_landlock = pytest.mark.skipif(
    not landlock_status()[0], reason=f"Landlock unusable here: {landlock_status()[1]}"
)
KINDS = [
    pytest.param("bubblewrap", marks=needs_bwrap),
    pytest.param("landlock", marks=needs_landlock),
    "none",
]


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    """Every sandbox kind: the test runs under bubblewrap, Landlock and without."""
    return str(request.param)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def shell_ctx(ws: Path) -> Callable[..., ToolContext]:
    def make(kind: str = "none", mode: str = "full", **kwargs: Any) -> ToolContext:
        """Approval defaults to auto (commands write the workspace); pass ask/never to
        get their edits as proposals."""
        kwargs.setdefault("approval", "auto")
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
