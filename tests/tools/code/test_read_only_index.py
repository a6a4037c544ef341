"""A code tool builds its index without writing the cache unless the mode may write, and
without worker processes unless the mode may run them (read-only starts no process)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition
from agentls.tools.permissions import PermissionSet
from agentls.workspace import Workspace


@pytest.mark.parametrize(("mode", "cache_written"), [("read-only", False), ("ci", False), ("dev", True)])
def test_index_cache_written_only_when_the_mode_may_write(tmp_path: Path, mode: str, cache_written: bool) -> None:
    for i in range(70):  # above the in-process threshold: a pool would be used if allowed
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    ctx = ToolContext(workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode(mode))
    tool = FindSymbolDefinition()
    out = tool.execute(tool.Input(symbol="f42"), ctx)
    assert out.locations[0].path == "m42.py"  # type: ignore[union-attr]
    assert (tmp_path / ".agentls").exists() == cache_written
    assert ctx.index is not None
    assert ctx.index.jobs == ((os.cpu_count() or 1) if mode == "ci" else 1)  # processes only with shellExecution
