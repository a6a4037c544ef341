"""The `install_dependencies` tool: install what the project's own manifest lists.

The manager is detected from the project's files (or given); the command comes from a
table and never takes a package name from the model. This is the one shell tool whose
sandbox allows the network (it needs the `network` permission too). Unless approval is
`auto` it runs in a scratch copy whose dependency folders (.venv, node_modules) are the
real ones, writable: what it installs there stays, and changes to the project's own
files (a lock file) come back as a proposal. Must not know: the agent, LSP, how the
sandbox confines.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.filesystem.proposing import call_timeout
from agentls.tools.permissions import NETWORK, SHELL
from agentls.tools.shell.edits import ShellEdits, edits_in_place, in_place_edits, propose_edits
from agentls.tools.shell.execution import (
    TAIL_CHARS,
    ShellTool,
    run_checked,
    sandbox_or_refuse,
    working_dir,
)
from agentls.tools.shell.fields import MAX_TIMEOUT_S, TIMEOUT_MARGIN_S
from agentls.tools.shell.suite_runners import python_for

Manager = Literal["pip", "npm", "go", "cargo"]
INSTALL_TIMEOUT_S = MAX_TIMEOUT_S


def _pip(project: Path, root: Path) -> str | None:
    python = shlex.quote(python_for(project, root))
    if (project / "requirements.txt").is_file():
        return f"{python} -m pip install -r requirements.txt"
    if (project / "pyproject.toml").is_file() or (project / "setup.py").is_file():
        return f"{python} -m pip install -e ."
    return None


def _npm(project: Path, root: Path) -> str | None:
    if not (project / "package.json").is_file():
        return None
    return "npm ci" if (project / "package-lock.json").is_file() else "npm install"


def _when(marker: str, command: str) -> Callable[[Path, Path], str | None]:
    return lambda project, root: command if (project / marker).is_file() else None


@dataclass(frozen=True, slots=True)
class PackageManager:
    name: str
    manifests: str  # for messages
    command: Callable[[Path, Path], str | None]  # (project dir, root) → command, None: not here


#: Detection order when no manager is given.
MANAGERS: tuple[PackageManager, ...] = (
    PackageManager("pip", "requirements.txt, pyproject.toml or setup.py", _pip),
    PackageManager("npm", "package.json", _npm),
    PackageManager("go", "go.mod", _when("go.mod", "go mod download")),
    PackageManager("cargo", "Cargo.toml", _when("Cargo.toml", "cargo fetch")),
)


def plan_install(project: Path, root: Path, manager: str | None) -> tuple[str, str] | str:
    """(manager, command), or the reason there is nothing to run."""
    candidates = [m for m in MANAGERS if manager in (None, m.name)]
    for candidate in candidates:
        command = candidate.command(project, root)
        if command is not None:
            return candidate.name, command
    if manager is None:
        return "no dependency manifest found (requirements.txt, pyproject.toml, package.json, go.mod, Cargo.toml)"
    return f"{manager}: none of {candidates[0].manifests} found"


class InstallDependenciesInput(ToolInput):
    manager: Manager | None = Field(
        default=None,
        description="pip, npm, go or cargo; detected from the project's files if omitted.",
    )


class InstallDependenciesOutput(ToolOutput):
    manager: str
    command: str
    exit_code: int | None = Field(description="Non-zero means the installation failed.")
    output_tail: str
    duration_ms: int
    network: bool
    sandbox: str
    edits: ShellEdits = Field(description="What became of the project files the install changed.")


class InstallDependencies(ShellTool):
    """Install the project's dependencies from its own manifest files, in the working directory.

    pip: `python -m pip install -r requirements.txt` (else `-e .` for pyproject.toml/setup.py),
    using the project's .venv when there is one; npm: `npm ci` with a package-lock.json, else
    `npm install`; go: `go mod download`; cargo: `cargo fetch`. No package names are taken
    as arguments. Unlike the other shell tools this one HAS NETWORK ACCESS; it runs in the
    same sandbox otherwise (no secrets in the environment; only the workspace is
    writable, so install into a virtualenv or node_modules inside it). Changes to the
    project's files (a lock file) become a proposal unless approval is 'auto'.
    A failed install is returned with its exit code; the time limit is 600 s.
    """

    name = "install_dependencies"
    permissions = frozenset({SHELL, NETWORK})
    Input = InstallDependenciesInput
    Output = InstallDependenciesOutput
    timeout_s = INSTALL_TIMEOUT_S + TIMEOUT_MARGIN_S

    def timeout_for(self, input: InstallDependenciesInput, ctx: ToolContext) -> float:
        return call_timeout(self.timeout_s, ctx)

    def execute(
        self, input: InstallDependenciesInput, ctx: ToolContext
    ) -> InstallDependenciesOutput:
        project = working_dir(ctx, None, self.name)
        plan = plan_install(project, ctx.workspace.root, input.manager)
        if isinstance(plan, str):
            raise ToolError("runtime", plan, self.name)
        manager, command = plan
        in_place = edits_in_place(ctx)
        config = dataclasses.replace(
            sandbox_or_refuse(ctx, self.name), network=True, writable_shared=not in_place
        )
        result = run_checked(
            self.name,
            command,
            project,
            INSTALL_TIMEOUT_S,
            ctx,
            config=config,
            keep_changes=not in_place,
        )
        edits = in_place_edits() if in_place else propose_edits(ctx, command, result.changes, self.name)
        return InstallDependenciesOutput(
            manager=manager,
            command=command,
            exit_code=result.exit_code,
            output_tail=result.tail(TAIL_CHARS),
            duration_ms=result.duration_ms,
            network=True,
            sandbox=result.sandbox,
            edits=edits,
        )
