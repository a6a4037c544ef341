"""install_dependencies: the manager and command come from the project's own files, and
this one tool runs with the network allowed (observed from inside the sandbox)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.shell import InstallDependencies
from agentls.tools.shell.install_dependencies import InstallDependenciesInput, plan_install

MakeCtx = Callable[..., ToolContext]
Write = Callable[[Path, dict[str, str]], None]


@pytest.fixture(autouse=True)
def no_active_virtualenv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)


PLAN_CASES = {
    # name: (files, manager, expected (manager, command) or an error fragment)
    "requirements": ({"requirements.txt": ""}, None, ("pip", "python3 -m pip install -r requirements.txt")),
    "pyproject": ({"pyproject.toml": ""}, None, ("pip", "python3 -m pip install -e .")),
    "setup.py": ({"setup.py": ""}, None, ("pip", "python3 -m pip install -e .")),
    "requirements beat pyproject": (
        {"requirements.txt": "", "pyproject.toml": ""}, None, ("pip", "python3 -m pip install -r requirements.txt"),
    ),
    "project virtualenv": (
        {"requirements.txt": "", ".venv/bin/python": ""}, None, ("pip", "{ws}/.venv/bin/python -m pip install -r requirements.txt"),
    ),
    "npm with lock file": ({"package.json": "{}", "package-lock.json": "{}"}, None, ("npm", "npm ci")),
    "npm without lock file": ({"package.json": "{}"}, None, ("npm", "npm install")),
    "go": ({"go.mod": "module x\n"}, None, ("go", "go mod download")),
    "cargo": ({"Cargo.toml": "[package]\n"}, None, ("cargo", "cargo fetch")),
    "explicit manager": ({"requirements.txt": "", "package.json": "{}"}, "npm", ("npm", "npm install")),
    "explicit manager, no manifest": ({"package.json": "{}"}, "pip", "pip: none of requirements.txt"),
    "nothing to install": ({"README.md": ""}, None, "no dependency manifest found"),
}  # fmt: skip


@pytest.mark.parametrize("case", PLAN_CASES)
def test_plan(case: str, ws: Path, write: Write) -> None:
    files, manager, expected = PLAN_CASES[case]
    write(ws, files)
    plan = plan_install(ws.resolve(), ws.resolve(), manager)
    if isinstance(expected, tuple):
        assert plan == (expected[0], expected[1].format(ws=ws.resolve()))
    else:
        assert isinstance(plan, str) and expected in plan


def test_unknown_manager_is_a_validation_error() -> None:
    with pytest.raises(ValidationError):
        InstallDependenciesInput(manager="brew")  # type: ignore[arg-type]


def test_nothing_to_install_is_a_runtime_error(shell_ctx: MakeCtx) -> None:
    with pytest.raises(ToolError) as err:
        InstallDependencies().execute(InstallDependenciesInput(), shell_ctx())
    assert err.value.type == "runtime" and "no dependency manifest" in err.value.message


def test_runs_the_planned_command_with_network(
    kind: str, ws: Path, write: Write, shell_ctx: MakeCtx
) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = server.getsockname()[1]
        probe = f"import socket, sys; socket.create_connection(('127.0.0.1', {port}), 1); print('connected', *sys.argv[1:])"
        # The project's "python" reports whether it can reach the network, and its arguments.
        write(
            ws,
            {
                "requirements.txt": "",
                ".venv/bin/python": f'#!/bin/sh\nexec {sys.executable} -c "{probe}" "$@"\n',
            },
        )
        (ws / ".venv/bin/python").chmod(0o755)
        out = InstallDependencies().execute(InstallDependenciesInput(), shell_ctx(kind))
    assert (out.manager, out.network, out.sandbox, out.exit_code) == ("pip", True, kind, 0)
    assert out.output_tail.strip() == "connected -m pip install -r requirements.txt"


def test_under_never_the_install_stays_and_project_files_are_proposed(
    kind: str, ws: Path, write: Write, shell_ctx: MakeCtx
) -> None:
    """What lands in the dependency folder (.venv) is kept; a change to the project's own
    files (here requirements.txt, as a lock file would be) becomes a pending proposal."""
    from agentls.tools.proposals import ProposalStore
    from agentls.workspace import Workspace

    script = '#!/bin/sh\necho installed > .venv/installed\necho "pkg==1" >> requirements.txt\n'
    write(ws, {"requirements.txt": "", ".venv/bin/python": script})
    (ws / ".venv/bin/python").chmod(0o755)
    workspace = Workspace(ws)
    ctx = shell_ctx(
        kind, approval="never", workspace=workspace, proposals=ProposalStore(workspace), run_id="r"
    )
    out = InstallDependencies().execute(InstallDependenciesInput(), ctx)
    assert out.exit_code == 0, out.output_tail
    assert (ws / ".venv/installed").read_text() == "installed\n"
    assert (ws / "requirements.txt").read_text() == ""
    assert (out.edits.status, out.edits.files) == ("pending", ["requirements.txt"])
    assert "+pkg==1" in out.edits.diff
