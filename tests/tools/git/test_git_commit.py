"""git_commit on a real repository: what gets staged and committed, and its failures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.git import GitCommit, GitStatus
from agentls.tools.git.commit import GitCommitInput
from agentls.tools.git.status import GitStatusInput
from agentls.tools.permissions import Permission

SETUP = "echo A > a.txt && rm b.txt && echo N > new.txt"


@pytest.mark.parametrize(
    ("paths", "committed", "left_unstaged", "left_untracked"),
    [
        (None, ["a.txt", "b.txt"], [], ["new.txt"]),  # every tracked change, not untracked files
        (["a.txt", "new.txt"], ["a.txt", "new.txt"], ["b.txt"], []),
        (["b.txt"], ["b.txt"], ["a.txt"], ["new.txt"]),  # a deletion
    ],
)
def test_commit_stages_and_commits(
    paths: list[str] | None,
    committed: list[str],
    left_unstaged: list[str],
    left_untracked: list[str],
    sh: Callable[[str], None],
    git: Callable[..., str],
    ctx: ToolContext,
) -> None:
    sh(SETUP)
    message = "Update files\n\nLonger body."
    out = GitCommit().execute(GitCommitInput(message=message, paths=paths), ctx)
    assert out.sha == git("rev-parse", "HEAD").strip()
    assert (out.summary, out.branch, out.files_changed) == ("Update files", "main", len(committed))
    assert sorted(git("show", "--name-only", "--format=", "HEAD").split()) == committed
    assert git("log", "-1", "--format=%B").strip() == message
    status = GitStatus().execute(GitStatusInput(), ctx)
    assert [c.path for c in status.unstaged] == left_unstaged
    assert status.untracked == left_untracked and status.staged == []


def test_commit_counts_lines(sh: Callable[[str], None], ctx: ToolContext) -> None:
    sh("printf 'one\\ntwo\\n' >> a.txt")
    out = GitCommit().execute(GitCommitInput(message="more"), ctx)
    assert (out.insertions, out.deletions, out.files_changed) == (2, 0, 1)


@pytest.mark.parametrize("paths", [None, ["a.txt"]])
def test_nothing_to_commit_is_a_runtime_error(paths: list[str] | None, ctx: ToolContext) -> None:
    with pytest.raises(ToolError) as err:
        GitCommit().execute(GitCommitInput(message="nothing", paths=paths), ctx)
    assert err.value.type == "runtime" and "nothing to commit" in err.value.message


@pytest.mark.parametrize(
    "raw",
    [
        {"message": ""},
        {"message": "  \n\t"},
        {"message": "a\x00b"},
        {},
        {"message": "m", "paths": ["a\x00"]},
    ],
)
def test_malformed_input_is_a_validation_error(raw: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        GitCommitInput.model_validate(raw)


def test_paths_outside_the_workspace_are_refused(ctx: ToolContext) -> None:
    with pytest.raises(ToolError) as err:
        GitCommit().execute(GitCommitInput(message="m", paths=["../x"]), ctx)
    assert err.value.type == "permission"


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("true", "did not match any files"),  # paths=["missing.txt"]
        (
            "printf '#!/bin/sh\\necho hook says no >&2\\nexit 1\\n' > .git/hooks/pre-commit"
            " && chmod +x .git/hooks/pre-commit && echo A > a.txt",
            "hook says no",
        ),
    ],
    ids=["unknown path", "rejecting hook"],
)
def test_git_failures_carry_git_stderr(
    setup: str, expected: str, sh: Callable[[str], None], ctx: ToolContext
) -> None:
    sh(setup)
    paths = ["missing.txt"] if setup == "true" else None
    with pytest.raises(ToolError) as err:
        GitCommit().execute(GitCommitInput(message="m", paths=paths), ctx)
    assert err.value.type == "runtime" and expected in err.value.message


def test_commit_needs_git_write(repo: Path) -> None:
    assert Permission.GIT_WRITE in GitCommit().permissions_for(GitCommitInput(message="m"))
