"""With no OS sandbox the shell tools are listed as disabled with the reason and refused
with a `permission` error; `shellSandbox: "none"` (and only that) enables them, and the
result says the command ran unconfined. bubblewrap is hidden from PATH for real; Landlock
cannot be hidden like a binary, so its probe answers "not here" (the probe itself runs
for real in test_escapes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agentls.settings import Settings
from agentls.tools import sandbox
from agentls.tools.audit import AuditLog
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import default_registry
from agentls.tools.sandbox import config as sandbox_config
from agentls.workspace import Workspace

SHELL_TOOLS = ["run_command", "run_test_suite", "install_dependencies"]


@pytest.fixture
def no_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("sh", "touch", "cat"):
        (bin_dir / name).symlink_to(f"/bin/{name}")
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(
        sandbox_config, "landlock_status", lambda: (False, "Landlock is not available")
    )
    sandbox.bubblewrap_status.cache_clear()
    yield
    sandbox.bubblewrap_status.cache_clear()


def context(root: Path, shell_sandbox: str) -> ToolContext:
    root.mkdir(exist_ok=True)
    return ToolContext(
        workspace=Workspace(root),
        permissions=PermissionSet.for_mode("full"),
        approval="auto",
        settings=Settings(shellSandbox=shell_sandbox),  # type: ignore[call-arg]
    )


def test_shell_tools_are_disabled_with_the_reason(no_backend: None, tmp_path: Path) -> None:
    ctx = context(tmp_path / "ws", "auto")
    schemas = {s["name"]: s for s in default_registry().schemas(ctx.permissions, ctx)}
    for name in SHELL_TOOLS:
        assert schemas[name]["enabled"] is False
        reason = schemas[name]["disabledReason"]
        assert "bwrap not found on PATH" in reason and "Landlock is not available" in reason
        assert 'set "shellSandbox": "none"' in reason
    assert schemas["read_file"]["enabled"] is True


def test_a_call_is_refused_with_a_permission_error(no_backend: None, tmp_path: Path) -> None:
    ctx = context(tmp_path / "ws", "auto")
    executor = ToolExecutor(default_registry(), AuditLog(tmp_path / "audit.jsonl"))
    result = executor.execute("run_command", {"command": f"touch {tmp_path}/pwned"}, ctx)
    assert not result.ok and result.error is not None
    assert result.error["type"] == "permission"
    assert "no OS sandbox works here" in result.error["message"]
    assert not (tmp_path / "pwned").exists()


def test_the_opt_in_enables_them_and_says_so(no_backend: None, tmp_path: Path) -> None:
    ctx = context(tmp_path / "ws", "none")
    schemas = {s["name"]: s for s in default_registry().schemas(ctx.permissions, ctx)}
    assert all(schemas[name]["enabled"] for name in SHELL_TOOLS)
    executor = ToolExecutor(default_registry(), AuditLog(tmp_path / "audit.jsonl"))
    result = executor.execute(
        "run_command", {"command": "cat /etc/hostname >/dev/null; echo ran"}, ctx
    )
    assert result.ok and result.output is not None, result.error
    assert (result.output["stdout"], result.output["sandbox"]) == ("ran\n", "none")


def test_an_explicit_backend_that_does_not_work_is_not_replaced(
    no_backend: None, tmp_path: Path
) -> None:
    for choice in ("bubblewrap", "landlock"):
        ctx = context(tmp_path / "ws", choice)
        ok, reason = default_registry().get("run_command").enabled(ctx)  # type: ignore[union-attr]
        assert not ok and f"the {choice} sandbox does not work here" in str(reason)
