"""Fixtures for the tool-system tests: a small workspace and a context factory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.filesystem import TOOLS as FILESYSTEM_TOOLS
from agentls.tools.permissions import PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.tools.registry import ToolRegistry
from agentls.tools.system import TOOLS as SYSTEM_TOOLS
from agentls.workspace import Workspace

MakeCtx = Callable[..., ToolContext]


@pytest.fixture
def ws_root(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def main():\n    return 1\n")
    (root / "README.md").write_text("# demo\nhello world\n")
    return root


@pytest.fixture
def make_ctx(ws_root: Path) -> MakeCtx:
    def make(mode: str = "dev", approval: str = "never", **kwargs: Any) -> ToolContext:
        workspace = kwargs.pop("workspace", None) or Workspace(ws_root)
        return ToolContext(
            workspace=workspace,
            permissions=PermissionSet.for_mode(mode),
            proposals=kwargs.pop("proposals", None) or ProposalStore(workspace),
            run_id=kwargs.pop("run_id", "run-1"),
            approval=approval,  # type: ignore[arg-type]
            **kwargs,
        )

    return make


@pytest.fixture
def fs_executor() -> ToolExecutor:
    """An executor over the tools of this area (filesystem + system)."""
    return ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *SYSTEM_TOOLS]))


@pytest.fixture
def call(fs_executor: ToolExecutor) -> Callable[..., ToolResult]:
    def run(ctx: ToolContext, name: str, **raw: Any) -> ToolResult:
        return fs_executor.execute(name, raw, ctx)

    return run
