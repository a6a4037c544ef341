"""Fixtures for the knowledge tool tests: a workspace and a dev-mode tool context."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.workspace import Workspace


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(workspace=Workspace(tmp_path), permissions=PermissionSet.for_mode("dev"))
