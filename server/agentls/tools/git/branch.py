"""The `git_branch` tool: list branches, or create one and/or switch to it.

Listing needs only filesystemRead; creating or switching needs gitWrite as well
(`permissions_for` looks at the input). Must not know: the agent, LSP; other git tools.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.git.fields import BranchName
from agentls.tools.git.repository import GitTool, RepoView, open_view
from agentls.tools.permissions import Permission

_FORMAT = "%(refname:short)%00%(objectname:short)%00%(upstream:short)%00%(HEAD)"


class GitBranchInput(ToolInput):
    name: BranchName | None = Field(
        default=None,
        description="Branch to create (or, with checkout, to switch to). Omit to list.",
    )
    checkout: bool = Field(default=False, description="Switch to the branch (creating it if new).")


class BranchInfo(ToolOutput):
    name: str
    commit: str
    upstream: str | None
    current: bool


class GitBranchOutput(ToolOutput):
    current: str | None = Field(description="The checked-out branch; None when detached.")
    branches: list[BranchInfo]
    created: bool
    switched: bool


def _branches(view: RepoView) -> list[BranchInfo]:
    raw = view.git("for-each-ref", f"--format={_FORMAT}", "refs/heads")
    out: list[BranchInfo] = []
    for line in raw.splitlines():
        name, commit, upstream, head = line.split("\0")
        out.append(
            BranchInfo(name=name, commit=commit, upstream=upstream or None, current=head == "*")
        )
    return out


def _current(view: RepoView) -> str | None:
    return None if view.repo.head.is_detached else view.repo.active_branch.name


class GitBranch(GitTool):
    """List the local git branches and the current one; or, with `name`, create that branch
    at HEAD (and switch to it with checkout=true). An existing `name` with checkout=true
    switches to it. Listing needs only read permission; creating or switching needs gitWrite."""

    name = "git_branch"
    permissions = frozenset({Permission.FILESYSTEM_READ})
    Input = GitBranchInput
    Output = GitBranchOutput

    def permissions_for(self, input: Any) -> frozenset[Permission]:
        if getattr(input, "name", None) is None:
            return self.permissions
        return self.permissions | {Permission.GIT_WRITE}

    def execute(self, input: GitBranchInput, ctx: ToolContext) -> GitBranchOutput:
        created = switched = False
        with open_view(ctx, self.name) as view:
            if input.name is not None:
                exists = any(b.name == input.name for b in _branches(view))
                if exists and not input.checkout:
                    raise ToolError(
                        "runtime",
                        f"branch {input.name!r} already exists; pass checkout=true to switch to it",
                        self.name,
                    )
                if exists:
                    switched = _current(view) != input.name
                    view.git("switch", "--quiet", input.name)
                elif input.checkout:
                    view.git("switch", "--quiet", "--create", input.name)
                    created = switched = True
                else:
                    view.git("branch", input.name)
                    created = True
            return GitBranchOutput(
                current=_current(view), branches=_branches(view), created=created, switched=switched
            )
