"""Fixtures for the web-tool tests: the loopback servers, the net guard (on for every test
here), and `web`, which runs a web tool through the real executor with given settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_servers import InternalServer, NetGuard, WebCall, WebServer

from agentls.settings import Settings
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import ToolRegistry
from agentls.tools.web import TOOLS as WEB_TOOLS
from agentls.workspace import Workspace


@pytest.fixture(scope="module")
def web_server() -> Iterator[WebServer]:
    with WebServer() as server:
        yield server  # type: ignore[misc]


@pytest.fixture(scope="module")
def internal_server() -> Iterator[InternalServer]:
    with InternalServer() as server:
        yield server  # type: ignore[misc]


@pytest.fixture(autouse=True)
def net_guard(monkeypatch: pytest.MonkeyPatch, web_server: WebServer, internal_server: InternalServer) -> Iterator[NetGuard]:
    hits_before = len(internal_server.requests)
    guard = NetGuard(web_server.port).install(monkeypatch)
    yield guard
    assert guard.violations == [], f"a connection left for a refused address: {guard.violations}"
    assert len(internal_server.requests) == hits_before, "a request reached the internal server"


@pytest.fixture
def web(tmp_path: Path) -> WebCall:
    executor = ToolExecutor(ToolRegistry(WEB_TOOLS))

    def call(name: str, mode: str = "dev", settings: dict[str, Any] | None = None, **raw: Any) -> Any:
        ctx = ToolContext(
            workspace=Workspace(tmp_path),
            permissions=PermissionSet.for_mode(mode),
            settings=Settings.model_validate({"webTimeoutS": 2, **(settings or {})}),
        )
        return executor.execute(name, raw, ctx)

    return call
