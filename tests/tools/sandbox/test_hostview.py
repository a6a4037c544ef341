"""What of the host a command may see: the system folders, the interpreter, PATH
folders (a toolchain under /tmp included, as in a CI checkout), never the home, the
shared /tmp or the root because PATH names them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.sandbox import SandboxConfig, bubblewrap_status, landlock_status, run_process
from agentls.tools.sandbox.hostview import host_view
from agentls.workspace import Workspace

HOME = os.path.realpath(os.path.expanduser("~"))


def test_wide_path_entries_are_never_shown(tmp_path: Path) -> None:
    tool = tmp_path / "tool" / "bin"
    tool.mkdir(parents=True)
    view = host_view(
        os.pathsep.join([HOME, "/tmp", "/", str(Path(HOME).parent), str(tool), "relative"])
    )
    assert str(tool.resolve()) in view.readable
    for wide in (HOME, "/tmp", "/", str(Path(HOME).parent)):
        assert wide not in view.readable
    assert os.path.realpath(sys.prefix) in view.readable or any(
        os.path.realpath(sys.prefix).startswith(f + "/") for f in view.readable
    )


def test_system_folders_are_shown_and_etc_secrets_hidden() -> None:
    view = host_view("/usr/bin")
    assert "/usr" in view.readable and "/etc" in view.readable
    shadow = Path("/etc/shadow")
    if shadow.exists() and not shadow.stat().st_mode & 0o004:
        assert str(shadow) in view.hidden_files


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(
            "bubblewrap",
            marks=pytest.mark.skipif(bubblewrap_status()[0] is None, reason=f"bubblewrap unusable here: {bubblewrap_status()[1]}"),
        ),
        pytest.param(
            "landlock",
            marks=pytest.mark.skipif(
                not landlock_status()[0], reason=f"Landlock unusable here: {landlock_status()[1]}"
            ),
        ),
    ],
)
def test_a_toolchain_under_tmp_runs(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = tmp_path / "toolchain" / "bin"
    tool.mkdir(parents=True)
    program = tool / "hello-agentls"
    program.write_text("#!/bin/sh\necho hello from the toolchain\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tool}{os.pathsep}{os.environ['PATH']}")
    ws = tmp_path / "ws"
    ws.mkdir()
    ctx = ToolContext(
        workspace=Workspace(ws),
        permissions=PermissionSet.for_mode("full"),
        sandbox=SandboxConfig(kind=kind),
    )  # type: ignore[arg-type]
    result = run_process("hello-agentls", ws, 20, ctx)
    assert result.stdout == "hello from the toolchain\n", result.stderr
