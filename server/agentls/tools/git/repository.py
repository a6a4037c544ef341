"""The git tools' view of the repository: open it (GitPython), run git without ever
letting it prompt, map paths between the workspace and the repository, and turn git
failures into `runtime` ToolErrors that carry git's own stderr.

The workspace may be a sub-folder of the repository: paths the tools show are
workspace-relative, and whole-repository operations are limited to the workspace.
Must not know: any particular git tool, the agent, LSP.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentls.tools.base import Tool, ToolContext, ToolError
from agentls.workspace import PathOutsideWorkspace

if TYPE_CHECKING:
    import git

#: Never prompt, never open an editor or a pager.
GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
    "GCM_INTERACTIVE": "never",
    "GIT_EDITOR": "true",
    "GIT_PAGER": "cat",
}
GIT_TIMEOUT_S = 120  # hooks and signing may run; nothing waits for a person
NOT_A_REPO = "not a git repository"


def _gitpython() -> Any:
    try:
        import git
    except ImportError as exc:  # GitPython refuses to import without a git executable
        raise RuntimeError(f"git is not available: {exc}") from exc
    return git


def find_repo(root: Path) -> git.Repo | None:
    """The repository containing `root` (searching parents), or None."""
    gitmod = _gitpython()
    try:
        repo = gitmod.Repo(root, search_parent_directories=True)
    except (gitmod.InvalidGitRepositoryError, gitmod.NoSuchPathError):
        return None
    if repo.bare or repo.working_tree_dir is None:
        repo.close()
        return None
    repo.git.update_environment(**GIT_ENV)
    return repo


class RepoView:
    """A repository seen from the workspace: git calls and path mapping."""

    def __init__(self, repo: git.Repo, ctx: ToolContext, tool: str) -> None:
        self.repo = repo
        self.ctx = ctx
        self.tool = tool
        self.top = Path(str(repo.working_tree_dir)).resolve()
        prefix = ctx.workspace.root.relative_to(self.top).as_posix()
        self.prefix = "" if prefix == "." else prefix

    def git(self, command: str, *args: str, **kwargs: Any) -> str:
        """Run `git <command> args`; a failure becomes a runtime ToolError with git's stderr."""
        gitmod = _gitpython()
        try:
            return getattr(self.repo.git, command)(
                *args, kill_after_timeout=GIT_TIMEOUT_S, **kwargs
            )
        except gitmod.GitCommandError as exc:
            raise git_error(exc, self.tool) from None

    def status_code(self, command: str, *args: str) -> int:
        """The exit status of a git command run only for its status (e.g. `diff --quiet`)."""
        status, _, _ = getattr(self.repo.git, command)(
            *args, with_extended_output=True, with_exceptions=False
        )
        return int(status)

    def to_workspace(self, repo_rel: str) -> str | None:
        """A repository-relative path as a workspace-relative one (None: outside)."""
        if not self.prefix:
            return repo_rel
        if repo_rel.startswith(self.prefix + "/"):
            return repo_rel[len(self.prefix) + 1 :]
        return None

    def pathspec(self, path: str | None) -> list[str]:
        """Repository-relative pathspec for a workspace path (None: the whole workspace)."""
        if path is None:
            return [f":(top){self.prefix}"] if self.prefix else []
        try:
            real = self.ctx.workspace.resolve(path)
        except PathOutsideWorkspace as exc:
            raise ToolError("permission", str(exc), self.tool, path=exc.path) from None
        rel = real.relative_to(self.top).as_posix()
        return [f":(top,literal){rel}" if rel != "." else ":(top)."]


def _clean(text: Any, label: str) -> str:
    """GitPython wraps streams as "\n  stderr: '...'"; unwrap to git's own words."""
    text = str(text or "").strip()
    if text.startswith(f"{label}:"):
        text = text[len(label) + 1 :].strip()
        if len(text) >= 2 and text[0] == text[-1] == "'":
            text = text[1:-1]
    return text.strip()


def git_error(exc: Any, tool: str) -> ToolError:
    """A GitCommandError as a runtime ToolError whose message is git's stderr."""
    command = " ".join(str(part) for part in (getattr(exc, "command", None) or [])[:2])
    message = _clean(exc.stderr, "stderr") or _clean(exc.stdout, "stdout") or str(exc)
    return ToolError("runtime", f"{command or 'git'} failed: {message}", tool, status=exc.status)


@contextlib.contextmanager
def open_view(ctx: ToolContext, tool: str) -> Iterator[RepoView]:
    try:
        repo = find_repo(ctx.workspace.root)
    except RuntimeError as exc:
        raise ToolError("runtime", str(exc), tool) from None
    if repo is None:
        raise ToolError("runtime", f"{NOT_A_REPO}: {ctx.workspace.root}", tool)
    with repo:
        yield RepoView(repo, ctx, tool)


class GitTool(Tool):
    """Base of the git tools: disabled outside a git repository."""

    category = "git"

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        if ctx is None:
            return True, None
        try:
            repo = find_repo(ctx.workspace.root)
        except RuntimeError as exc:
            return False, str(exc)
        if repo is None:
            return False, NOT_A_REPO
        repo.close()
        return True, None
