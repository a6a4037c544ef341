"""The `git_diff` tool: the unified diff of unstaged (or staged) changes, capped, plus a
per-file count of added and deleted lines.

Must not know: the agent, LSP; how other git tools work.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import ToolContext, ToolInput, ToolOutput
from agentls.tools.git.fields import PathText
from agentls.tools.git.repository import GitTool, RepoView, open_view
from agentls.tools.permissions import Permission

MAX_DIFF_CHARS = 100_000


class GitDiffInput(ToolInput):
    staged: bool = Field(
        default=False, description="Diff the staged changes (index vs HEAD) instead of unstaged."
    )
    path: PathText | None = Field(
        default=None, description="Limit to this file or directory (relative to the workspace)."
    )


class FileStat(ToolOutput):
    path: str
    added: int | None = Field(description="None for binary files.")
    deleted: int | None


class GitDiffOutput(ToolOutput):
    diff: str = Field(description="Unified diff text (empty when nothing changed).")
    files: list[FileStat]
    staged: bool
    truncated: bool = Field(description=f"The diff was cut at {MAX_DIFF_CHARS} characters.")


def _numstat(raw: str, view: RepoView) -> list[FileStat]:
    files: list[FileStat] = []
    for line in raw.splitlines():
        added, deleted, path = line.split("\t", 2)
        shown = view.to_workspace(path) or path
        files.append(
            FileStat(
                path=shown,
                added=None if added == "-" else int(added),
                deleted=None if deleted == "-" else int(deleted),
            )
        )
    return files


class GitDiff(GitTool):
    """Show the unified diff of the working tree against the index (unstaged changes), or with
    staged=true of the index against HEAD, optionally limited to one path. Untracked files
    are not in a diff (git_status lists them). Long diffs are cut."""

    name = "git_diff"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = GitDiffInput
    Output = GitDiffOutput

    def execute(self, input: GitDiffInput, ctx: ToolContext) -> GitDiffOutput:
        with open_view(ctx, self.name) as view:
            spec = view.pathspec(input.path)
            base = ["--no-color", "--no-ext-diff", *(["--cached"] if input.staged else [])]
            text = view.git("diff", *base, "--", *spec, strip_newline_in_stdout=False)
            stats = view.git("diff", *base, "--numstat", "--", *spec)
        truncated = len(text) > MAX_DIFF_CHARS
        if truncated:
            text = text[:MAX_DIFF_CHARS] + "\n... [diff truncated] ...\n"
        return GitDiffOutput(
            diff=text, files=_numstat(stats, view), staged=input.staged, truncated=truncated
        )
