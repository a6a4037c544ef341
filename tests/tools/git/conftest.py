"""Real git repositories in temp dirs, and tool contexts on them."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.workspace import Workspace

ENV = {
    "PATH": "/usr/bin:/bin:/usr/local/bin",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def run_git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True, env=ENV
    )
    return done.stdout


@pytest.fixture
def init_repo() -> Callable[[Path], Path]:
    """Make `root` an empty repository on branch main with a committer identity."""

    def init(root: Path) -> Path:
        root.mkdir(parents=True, exist_ok=True)
        run_git(root, "init", "--quiet", "--initial-branch=main")
        run_git(root, "config", "user.name", "Agent Test")
        run_git(root, "config", "user.email", "agent@example.com")
        run_git(root, "config", "commit.gpgsign", "false")
        return root

    return init


@pytest.fixture
def repo(tmp_path: Path, init_repo: Callable[[Path], Path]) -> Path:
    """A repository on branch main with one commit: a.txt, b.txt, src/c.py."""
    root = init_repo(tmp_path / "repo")
    for rel, text in {"a.txt": "alpha\n", "b.txt": "beta\n", "src/c.py": "x = 1\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    run_git(root, "add", ".")
    run_git(root, "commit", "--quiet", "-m", "initial")
    return root


@pytest.fixture
def git(repo: Path) -> Callable[..., str]:
    """Run git in the repository and return its stdout."""
    return lambda *args: run_git(repo, *args)


@pytest.fixture
def sh(repo: Path) -> Callable[[str], None]:
    """Run a shell script in the repository (to set up a case)."""

    def run(script: str) -> None:
        subprocess.run(["sh", "-c", script], cwd=repo, check=True, env=ENV, capture_output=True)

    return run


@pytest.fixture
def git_ctx() -> Callable[..., ToolContext]:
    def make(root: Path, mode: str = "full") -> ToolContext:
        return ToolContext(workspace=Workspace(root), permissions=PermissionSet.for_mode(mode))

    return make


@pytest.fixture
def ctx(repo: Path, git_ctx: Callable[..., ToolContext]) -> ToolContext:
    return git_ctx(repo)
