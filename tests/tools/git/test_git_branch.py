"""git_branch on a real repository: listing, creating, switching, name validation and
the permission split by input (listing reads; creating or switching writes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.executor import ToolExecutor
from agentls.tools.git import GitBranch
from agentls.tools.git.branch import GitBranchInput
from agentls.tools.permissions import Permission
from agentls.tools.registry import ToolRegistry

READ, GIT_WRITE = Permission.FILESYSTEM_READ, Permission.GIT_WRITE


@pytest.mark.parametrize(
    ("raw", "needed"),
    [
        ({}, {READ}),
        ({"checkout": True}, {READ}),
        ({"name": "topic"}, {READ, GIT_WRITE}),
        ({"name": "topic", "checkout": True}, {READ, GIT_WRITE}),
    ],
)
def test_permissions_depend_on_the_input(raw: dict[str, Any], needed: set[Permission]) -> None:
    assert GitBranch().permissions_for(GitBranchInput.model_validate(raw)) == needed


@pytest.mark.parametrize(
    ("raw", "current", "created", "switched"),
    [
        ({}, "main", False, False),
        ({"name": "topic"}, "main", True, False),
        ({"name": "feature/x-1", "checkout": True}, "feature/x-1", True, True),
        ({"name": "old", "checkout": True}, "old", False, True),  # exists: switch
        ({"name": "main", "checkout": True}, "main", False, False),  # already there
    ],
)
def test_list_create_switch(
    raw: dict[str, Any],
    current: str,
    created: bool,
    switched: bool,
    git: Callable[..., str],
    ctx: ToolContext,
) -> None:
    git("branch", "old")
    out = GitBranch().execute(GitBranchInput.model_validate(raw), ctx)
    assert (out.current, out.created, out.switched) == (current, created, switched)
    assert git("branch", "--show-current").strip() == current
    names = {b.name for b in out.branches}
    assert {"main", "old", raw.get("name", "main")} <= names
    assert [b.name for b in out.branches if b.current] == [current]
    head = git("rev-parse", "--short", "HEAD").strip()
    assert all(head.startswith(b.commit) or b.commit.startswith(head) for b in out.branches)


def test_existing_name_without_checkout_is_a_runtime_error(
    git: Callable[..., str], ctx: ToolContext
) -> None:
    git("branch", "old")
    with pytest.raises(ToolError) as err:
        GitBranch().execute(GitBranchInput(name="old"), ctx)
    assert err.value.type == "runtime" and "already exists" in err.value.message


def test_switch_blocked_by_local_changes_carries_git_stderr(
    sh: Callable[[str], None], ctx: ToolContext
) -> None:
    sh(
        "git switch -q -c other && echo other > a.txt && git commit -qam other && git switch -q main"
    )
    sh("echo local > a.txt")
    with pytest.raises(ToolError) as err:
        GitBranch().execute(GitBranchInput(name="other", checkout=True), ctx)
    assert err.value.type == "runtime" and "would be overwritten" in err.value.message


@pytest.mark.parametrize(
    "name",
    ["", "has space", "a..b", "-x", "x.lock", "x/", "/x", ".hidden", "a/.b", "a@{1}", "HEAD",
     "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a//b", "end.", "tab\there"],
)  # fmt: skip
def test_invalid_branch_names_are_validation_errors(name: str) -> None:
    with pytest.raises(ValidationError, match="not a valid branch name"):
        GitBranchInput(name=name)


@pytest.mark.parametrize("name", ["topic", "feature/x-1", "v1.2", "fix_123", "über"])
def test_valid_branch_names_are_accepted_by_git_too(
    name: str, git: Callable[..., str], ctx: ToolContext
) -> None:
    GitBranch().execute(GitBranchInput(name=name), ctx)
    assert name in git("branch", "--format=%(refname:short)").split()


@pytest.mark.parametrize(
    ("mode", "raw", "ok", "error_type"),
    [
        ("read-only", {}, True, None),
        ("read-only", {"name": "topic"}, False, "permission"),
        ("full", {"name": "topic"}, True, None),
        ("full", {"name": "bad name"}, False, "validation"),
    ],
)
def test_through_the_executor(
    mode: str,
    raw: dict[str, Any],
    ok: bool,
    error_type: str | None,
    repo: Any,
    git_ctx: Callable[..., ToolContext],
) -> None:
    executor = ToolExecutor(ToolRegistry([GitBranch]))
    result = executor.execute("git_branch", raw, git_ctx(repo, mode)).to_dict()
    assert result["ok"] is ok
    if not ok:
        assert result["error"]["type"] == error_type
