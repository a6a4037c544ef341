"""`run_process`: one command under the configured sandbox, in the workspace or in a
scratch copy of it, with a scrubbed environment, a timeout, cancellation and capped
output (the process tree is killed; see process_tree.py).

A scratch copy is mounted *at the workspace's own path* under bubblewrap (and under
Landlock as root), so absolute paths (virtualenv scripts, editable installs) resolve
into the copy; otherwise the command runs at the copy's temp path. With `keep_changes` the result carries what the command
changed in the copy (for a proposal); the real workspace stays untouched either way.
Must not know: any particular tool, the agent, LSP.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentls.tools.process_tree import run_tree
from agentls.tools.sandbox.bubblewrap import PRIVATE_HOME, bubblewrap_status, bwrap_argv
from agentls.tools.sandbox.config import SandboxConfig, sandbox_for
from agentls.tools.sandbox.environment import scrubbed_env
from agentls.tools.sandbox.landlock import landlock_argv
from agentls.tools.sandbox.scratch import Changes, changes, make_scratch
from agentls.workspace import confine

if TYPE_CHECKING:
    from agentls.tools.base import ToolContext

DEFAULT_OUTPUT_CAP = 200_000  # bytes kept per stream


@dataclass(slots=True)
class ProcessResult:
    exit_code: int | None
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    timed_out: bool
    cancelled: bool
    killed: bool  # the process tree was killed (timeout or cancellation)
    leftovers_stopped: int  # background processes still running at exit, then stopped
    duration_ms: int
    sandbox: str  # bubblewrap | landlock | none
    scratch: bool  # ran in a scratch copy of the workspace
    changes: Changes | None = None  # with keep_changes: what it changed in the copy

    def tail(self, limit: int = 4000) -> str:
        """The last `limit` characters of stdout and stderr, for error messages."""
        parts = [text for text in (self.stdout, self.stderr) if text.strip()]
        joined = "\n".join(parts)
        return joined[-limit:] if len(joined) > limit else joined


def _confined_argv(
    config: SandboxConfig,
    root: Path,
    source: Path,
    shared: list[str],
    cwd: Path,
    home: str,
) -> list[str]:
    path_var = os.environ.get("PATH", os.defpath)
    if config.kind == "bubblewrap":
        exe = bubblewrap_status()[0] or "bwrap"
        return bwrap_argv(
            exe, root, source, shared, cwd,
            network=config.network, writable_shared=config.writable_shared, path_var=path_var,
        )  # fmt: skip
    writable = [source]
    if config.writable_shared:
        writable += [root / rel for rel in shared if rel != ".git"]
    binds: list[tuple[Path, Path, bool]] = []
    if source != root and _mounts_at_root(config):
        binds = [
            (root / rel, source / rel, config.writable_shared and rel != ".git") for rel in shared
        ]
        binds.append((source, root, True))
    return landlock_argv(
        root, writable, Path(home), network=config.network, path_var=path_var,
        binds=binds, cwd=cwd if binds else None,
    )  # fmt: skip


def _mounts_at_root(config: SandboxConfig) -> bool:
    """Whether a scratch copy is mounted at the workspace's own path: under bubblewrap,
    and under Landlock as root (its launcher has a mount namespace then)."""
    return config.kind == "bubblewrap" or (config.kind == "landlock" and os.geteuid() == 0)


def run_process(
    command: str | Sequence[str],
    cwd: str | os.PathLike[str],
    timeout_s: float,
    ctx: ToolContext,
    *,
    output_cap_bytes: int = DEFAULT_OUTPUT_CAP,
    overlay: Mapping[str, bytes | None] | None = None,
    config: SandboxConfig | None = None,
    keep_changes: bool = False,
) -> ProcessResult:
    """Run a shell command string (via /bin/sh -c) or an argv list inside the sandbox.

    `cwd` must lie inside the workspace (PathOutsideWorkspace otherwise). `overlay` maps
    workspace-relative paths to new content (None deletes): the command then runs in a
    scratch copy with the overlay applied, as it does with `keep_changes` (whose result
    lists the files changed). The config defaults to `ctx.sandbox` (SandboxUnavailable
    when no sandbox works and none was opted out of).
    """
    config = config or sandbox_for(ctx)
    root = ctx.workspace.root
    real_cwd = confine(root, cwd, allow_absolute=True)
    argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("empty command")
    use_scratch = config.scratch or overlay is not None or keep_changes
    # Landlock's private HOME is a host folder; bubblewrap's lives on its private /tmp.
    landlock = config.kind == "landlock"
    home = Path(tempfile.mkdtemp(prefix="agentls-home-")).resolve() if landlock else None
    scratch = None
    found: Changes | None = None
    try:
        source, run_cwd, shared = root, real_cwd, []
        if use_scratch:
            at_root = _mounts_at_root(config)
            scratch = make_scratch(root, overlay or {}, link_shared=not at_root)
            source, shared = scratch.copy, scratch.shared
            if not at_root:
                run_cwd = source / real_cwd.relative_to(root)
        if config.kind == "none":
            env = scrubbed_env(network=config.network)
        else:
            private_home = str(home) if home is not None else PRIVATE_HOME
            env = scrubbed_env(network=config.network, private_home=private_home)
            argv = [*_confined_argv(config, root, source, shared, real_cwd, private_home), *argv]
        outcome = run_tree(argv, run_cwd, env, timeout_s, ctx.cancel, output_cap_bytes)
        if keep_changes and scratch is not None and not (outcome.timed_out or outcome.cancelled):
            found = changes(root, scratch.copy, overlay or {})
    finally:
        for tmp in (scratch.tmp if scratch else None, home):
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
    return ProcessResult(
        exit_code=outcome.exit_code,
        stdout=outcome.stdout.text(),
        stderr=outcome.stderr.text(),
        stdout_truncated=outcome.stdout.truncated,
        stderr_truncated=outcome.stderr.truncated,
        timed_out=outcome.timed_out,
        cancelled=outcome.cancelled,
        killed=outcome.killed,
        leftovers_stopped=outcome.leftovers_stopped,
        duration_ms=outcome.duration_ms,
        sandbox=config.kind,
        scratch=use_scratch,
        changes=found,
    )
