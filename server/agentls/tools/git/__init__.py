"""Git tools: git_status, git_diff, git_commit, git_branch (through GitPython). They are
disabled outside a git repository and never let git prompt.

Must not know: the agent, LSP, model providers.
"""

from agentls.tools.git.branch import GitBranch
from agentls.tools.git.commit import GitCommit
from agentls.tools.git.diff import GitDiff
from agentls.tools.git.status import GitStatus

TOOLS = [GitStatus, GitDiff, GitCommit, GitBranch]

__all__ = ["TOOLS", "GitBranch", "GitCommit", "GitDiff", "GitStatus"]
