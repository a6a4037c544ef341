"""The `git_status` tool: branch, upstream distance, staged/unstaged/untracked files.

Reads `git status --porcelain=v2 --branch -z` (stable, machine-readable).
Must not know: the agent, LSP; how other git tools work.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agentls.tools.base import ToolContext, ToolInput, ToolOutput
from agentls.tools.git.repository import GitTool, RepoView, open_view
from agentls.tools.permissions import Permission

MAX_ENTRIES = 500  # per list
CHANGE = {
    "M": "modified",
    "T": "typechange",
    "A": "added",
    "D": "deleted",
    "R": "renamed",
    "C": "copied",
    "U": "unmerged",
}
_FIELDS_BEFORE_PATH = {"1": 8, "2": 9, "u": 10}  # porcelain v2 entry types


class GitStatusInput(ToolInput):
    pass


class FileChange(ToolOutput):
    path: str
    change: str = Field(description="modified, added, deleted, renamed, copied or typechange.")
    from_path: str | None = Field(default=None, description="The old path of a rename or copy.")


class GitStatusOutput(ToolOutput):
    branch: str | None = Field(description="None when HEAD is detached.")
    head: str | None = Field(description="Short commit id; None before the first commit.")
    upstream: str | None
    ahead: int | None = Field(description="Commits not on the upstream (None without one).")
    behind: int | None
    staged: list[FileChange]
    unstaged: list[FileChange]
    untracked: list[str]
    conflicted: list[str]
    clean: bool
    truncated: bool = Field(description=f"A list was cut at {MAX_ENTRIES} entries.")


def parse_status(raw: str, view: RepoView) -> GitStatusOutput:
    out = GitStatusOutput(
        branch=None, head=None, upstream=None, ahead=None, behind=None, staged=[],
        unstaged=[], untracked=[], conflicted=[], clean=True, truncated=False,
    )  # fmt: skip
    tokens = iter(raw.split("\0"))
    for token in tokens:
        kind = token[:1]
        if kind == "#":
            _, key, *rest = token.split(" ")
            value = " ".join(rest)
            if key == "branch.oid" and value != "(initial)":
                out.head = value[:12]
            elif key == "branch.head" and value != "(detached)":
                out.branch = value
            elif key == "branch.upstream":
                out.upstream = value
            elif key == "branch.ab":
                ahead, behind = value.split(" ")
                out.ahead, out.behind = int(ahead), abs(int(behind))
            continue
        if kind in ("?", "1", "2", "u"):
            out.clean = False
        if kind == "?":
            _add(out, out.untracked, view.to_workspace(token[2:]))
        elif kind in _FIELDS_BEFORE_PATH:
            parts = token.split(" ", _FIELDS_BEFORE_PATH[kind])
            path = view.to_workspace(parts[-1])
            origin = view.to_workspace(next(tokens)) if kind == "2" else None
            if kind == "u":
                _add(out, out.conflicted, path)
                continue
            staged, unstaged = parts[1][0], parts[1][1]
            for code, target in ((staged, out.staged), (unstaged, out.unstaged)):
                if code != "." and path is not None:
                    change = FileChange(path=path, change=CHANGE.get(code, code), from_path=origin)
                    _add(out, target, change)
    return out


def _add(out: GitStatusOutput, target: list[Any], item: Any) -> None:
    if item is None:
        return
    if len(target) >= MAX_ENTRIES:
        out.truncated = True
    else:
        target.append(item)


class GitStatus(GitTool):
    """Show the git status: current branch and commit, ahead/behind its upstream, and the
    staged, unstaged, untracked and conflicted files (paths relative to the workspace)."""

    name = "git_status"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = GitStatusInput
    Output = GitStatusOutput

    def execute(self, input: GitStatusInput, ctx: ToolContext) -> GitStatusOutput:
        with open_view(ctx, self.name) as view:
            args = ["--porcelain=v2", "--branch", "-z", "--untracked-files=all"]
            raw = view.git("status", *args, "--", *view.pathspec(None))
            return parse_status(raw, view)
