"""git_diff on a real repository: unstaged vs staged, path limits, caps, confinement."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.git import GitDiff
from agentls.tools.git import diff as diff_module
from agentls.tools.git.diff import GitDiffInput

SETUP = "echo changed > a.txt && echo staged > b.txt && git add b.txt && echo new > untracked.txt"


@pytest.mark.parametrize(
    ("args", "files", "lines"),
    [
        ({}, [("a.txt", 1, 1)], ["-alpha", "+changed"]),
        ({"staged": True}, [("b.txt", 1, 1)], ["-beta", "+staged"]),
        ({"path": "b.txt"}, [], []),
        ({"path": "b.txt", "staged": True}, [("b.txt", 1, 1)], ["-beta", "+staged"]),
        ({"path": "src"}, [], []),
    ],
)
def test_diff(
    args: dict[str, object],
    files: list[tuple[str, int, int]],
    lines: list[str],
    sh: Callable[[str], None],
    ctx: ToolContext,
) -> None:
    sh(SETUP)
    out = GitDiff().execute(GitDiffInput.model_validate(args), ctx)
    assert [(f.path, f.added, f.deleted) for f in out.files] == files
    assert [
        line for line in out.diff.splitlines() if line[:1] in "+-" and line[1:2] not in "+-"
    ] == lines
    assert "untracked.txt" not in out.diff
    assert out.diff == "" or out.diff.endswith("\n")
    assert not out.truncated


def test_binary_file_counts_are_none(sh: Callable[[str], None], ctx: ToolContext) -> None:
    sh("printf 'a\\000b' > bin.dat && git add bin.dat")
    (stat,) = GitDiff().execute(GitDiffInput(staged=True), ctx).files
    assert (stat.path, stat.added, stat.deleted) == ("bin.dat", None, None)


def test_long_diffs_are_cut(
    sh: Callable[[str], None], ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diff_module, "MAX_DIFF_CHARS", 50)
    sh("seq 1 200 > a.txt")
    out = GitDiff().execute(GitDiffInput(), ctx)
    assert out.truncated and out.diff.endswith("... [diff truncated] ...\n")
    assert out.files[0].added == 200  # the counts are complete


@pytest.mark.parametrize("path", ["../outside", "/etc/passwd"])
def test_paths_outside_the_workspace_are_refused(path: str, ctx: ToolContext) -> None:
    with pytest.raises(ToolError) as err:
        GitDiff().execute(GitDiffInput(path=path), ctx)
    assert err.value.type == "permission"
