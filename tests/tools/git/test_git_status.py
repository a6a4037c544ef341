"""git_status on real repositories: file states, branch and upstream, sub-folder
workspaces, and being disabled outside a repository."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.git import TOOLS, GitStatus
from agentls.tools.git.status import GitStatusInput

MakeCtx = Callable[..., ToolContext]
Git = Callable[..., str]

STATUS_CASES = {
    # name: (setup script, staged, unstaged, untracked) — changes as (path, change)
    "clean": ("true", [], [], []),
    "modified": ("echo changed > a.txt", [], [("a.txt", "modified")], []),
    "deleted": ("rm b.txt", [], [("b.txt", "deleted")], []),
    "staged new file": ("echo n > new.txt && git add new.txt", [("new.txt", "added")], [], []),
    "staged, then changed again": (
        "echo one > a.txt && git add a.txt && echo two > a.txt",
        [("a.txt", "modified")],
        [("a.txt", "modified")],
        [],
    ),
    "renamed": ("git mv a.txt z.txt", [("z.txt", "renamed")], [], []),
    "untracked in a new folder": ("mkdir -p d/e && echo u > d/e/f.txt", [], [], ["d/e/f.txt"]),
    "name with spaces": ("echo s > 'with space.txt'", [], [], ["with space.txt"]),
}


@pytest.mark.parametrize("case", STATUS_CASES)
def test_status_file_states(case: str, sh: Callable[[str], None], ctx: ToolContext) -> None:
    script, staged, unstaged, untracked = STATUS_CASES[case]
    sh(script)
    out = GitStatus().execute(GitStatusInput(), ctx)
    assert [(c.path, c.change) for c in out.staged] == staged
    assert [(c.path, c.change) for c in out.unstaged] == unstaged
    assert out.untracked == untracked
    assert out.clean is (case == "clean")


def test_status_rename_keeps_the_old_path(sh: Callable[[str], None], ctx: ToolContext) -> None:
    sh("git mv a.txt z.txt")
    (change,) = GitStatus().execute(GitStatusInput(), ctx).staged
    assert (change.path, change.from_path) == ("z.txt", "a.txt")


@pytest.mark.parametrize(
    ("script", "branch", "upstream", "ahead", "behind"),
    [
        ("true", "main", None, None, None),
        (
            "git switch -q -c topic --track main && echo 1 > a.txt && git commit -qam one",
            "topic",
            "main",
            1,
            0,
        ),
        (
            "git switch -q -c topic --track main && echo 1 > a.txt && git commit -qam one"
            " && git switch -q main && echo 2 > b.txt && git commit -qam two && git switch -q topic",
            "topic",
            "main",
            1,
            1,
        ),
        ("git switch -q --detach HEAD", None, None, None, None),
    ],
    ids=["no upstream", "ahead", "ahead and behind", "detached"],
)
def test_status_branch_and_upstream(
    script: str,
    branch: str | None,
    upstream: str | None,
    ahead: int | None,
    behind: int | None,
    sh: Callable[[str], None],
    git: Git,
    ctx: ToolContext,
) -> None:
    sh(script)
    out = GitStatus().execute(GitStatusInput(), ctx)
    assert (out.branch, out.upstream, out.ahead, out.behind) == (branch, upstream, ahead, behind)
    assert out.head == git("rev-parse", "--short=12", "HEAD").strip()


def test_status_in_a_sub_folder_workspace_shows_only_its_files(
    repo: Path, sh: Callable[[str], None], git_ctx: MakeCtx
) -> None:
    sh("echo 2 > src/c.py && echo changed > a.txt && echo n > src/new.py")
    out = GitStatus().execute(GitStatusInput(), git_ctx(repo / "src"))
    assert [(c.path, c.change) for c in out.unstaged] == [("c.py", "modified")]
    assert out.untracked == ["new.py"]


def test_status_before_the_first_commit(
    tmp_path: Path, init_repo: Callable[[Path], Path], git_ctx: MakeCtx
) -> None:
    root = init_repo(tmp_path / "fresh")
    (root / "x.txt").write_text("x")
    out = GitStatus().execute(GitStatusInput(), git_ctx(root))
    assert (out.branch, out.head, out.untracked) == ("main", None, ["x.txt"])


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_git_tools_are_disabled_outside_a_repository(
    tool: type, tmp_path: Path, repo: Path, git_ctx: MakeCtx
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert tool().enabled(git_ctx(plain)) == (False, "not a git repository")
    assert tool().enabled(git_ctx(repo)) == (True, None)


def test_running_outside_a_repository_is_a_runtime_error(tmp_path: Path, git_ctx: MakeCtx) -> None:
    with pytest.raises(ToolError) as err:
        GitStatus().execute(GitStatusInput(), git_ctx(tmp_path))
    assert err.value.type == "runtime" and "not a git repository" in err.value.message
