"""The `git_commit` tool: stage the given paths (or every tracked change) and commit.

Must not know: the agent, LSP; how other git tools work.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.git.fields import MessageText, PathText
from agentls.tools.git.repository import GitTool, open_view
from agentls.tools.permissions import Permission


class GitCommitInput(ToolInput):
    message: MessageText = Field(description="The commit message; its first line is the summary.")
    paths: list[PathText] | None = Field(
        default=None,
        description="Files or directories to stage and commit (relative to the workspace). "
        "Omitted: every change to tracked files, plus whatever is already staged.",
    )


class GitCommitOutput(ToolOutput):
    sha: str
    short_sha: str
    branch: str | None = Field(description="None when HEAD is detached.")
    summary: str
    files_changed: int
    insertions: int
    deletions: int


class GitCommit(GitTool):
    """Commit to git: stage `paths` (new, changed or deleted files; only those are
    committed) or, without `paths`, every change to tracked files; then commit with
    `message`. Nothing to commit is an error. Repository hooks run as usual."""

    name = "git_commit"
    permissions = frozenset({Permission.FILESYSTEM_READ, Permission.GIT_WRITE})
    Input = GitCommitInput
    Output = GitCommitOutput

    def execute(self, input: GitCommitInput, ctx: ToolContext) -> GitCommitOutput:
        with open_view(ctx, self.name) as view:
            if input.paths:
                spec = [s for path in input.paths for s in view.pathspec(path)]
                view.git("add", "--all", "--", *spec)
            else:
                spec = []
                view.git("add", "--update", "--", *view.pathspec(None))
            if view.status_code("diff", "--cached", "--quiet", "--", *spec) == 0:
                where = "in the given paths" if spec else "(no staged or tracked changes)"
                raise ToolError("runtime", f"nothing to commit {where}", self.name)
            view.git("commit", "--quiet", "--message", input.message, "--", *spec)
            commit = view.repo.head.commit
            stats = commit.stats.total
            branch = None if view.repo.head.is_detached else view.repo.active_branch.name
            return GitCommitOutput(
                sha=commit.hexsha,
                short_sha=commit.hexsha[:12],
                branch=branch,
                summary=str(commit.summary),
                files_changed=int(stats.get("files", 0)),
                insertions=int(stats.get("insertions", 0)),
                deletions=int(stats.get("deletions", 0)),
            )
