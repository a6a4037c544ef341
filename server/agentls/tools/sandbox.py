"""The sandbox every shell tool runs its processes in.

`run_process` runs a command with a scrubbed environment (an allow-list, minus anything
that looks like a secret), a timeout, cancellation through `ctx.cancel`, capped output,
and — when bubblewrap works here — OS confinement: the system is mounted read-only, /tmp
is private, the workspace (or a scratch copy of it) is the only writable place, there is
no network unless the config allows it, and the command lives in its own PID namespace so
that killing bubblewrap kills everything it started. Without bubblewrap the same API
runs the command unconfined and says so (sandbox kind "none").

A scratch copy (config.scratch, or an `overlay` of pending proposals) is mounted *at the
workspace's own path*, so absolute paths (virtualenv scripts, editable installs) resolve
into the copy; heavy shared directories (.git, node_modules, virtualenvs) are bound
read-only from the real workspace instead of copied. The real workspace stays untouched.
Must not know: any particular tool, the agent, LSP.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from agentls.tools.process_tree import run_tree
from agentls.workspace import confine

if TYPE_CHECKING:
    from agentls.tools.base import ToolContext

SandboxKind = Literal["bubblewrap", "none"]
DEFAULT_OUTPUT_CAP = 200_000  # bytes kept per stream

#: Variables a child may inherit (plus every LC_*), unless their name looks secret.
ALLOWED_ENV = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR",
    "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONIOENCODING",
    "PYTHONUTF8", "PYENV_ROOT", "PYENV_VERSION", "JAVA_HOME", "GOPATH", "GOROOT",
    "GOMODCACHE", "GOFLAGS", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "NODE_PATH",
    "NVM_DIR", "NVM_BIN",
})  # fmt: skip
#: Proxy settings, passed only when the network is allowed and they hold no credentials.
PROXY_ENV = frozenset({
    "http_proxy", "https_proxy", "no_proxy", "all_proxy",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
})  # fmt: skip
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
FIXED_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}
#: Under bubblewrap HOME is read-only: caches go to the private /tmp.
BWRAP_ENV = {"TMPDIR": "/tmp", "XDG_CACHE_HOME": "/tmp/.cache", "npm_config_cache": "/tmp/.npm"}

#: In a scratch copy these are bound read-only from the real workspace, not copied.
SHARED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", ".tox"})
#: ... and these caches are left out of the copy altogether.
SKIPPED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"})


def _bwrap_argv(
    exe: str, root: Path, source: Path, shared: Sequence[str], cwd: Path, network: bool
) -> list[str]:
    argv = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    argv += [arg for path in _toolchain_under_tmp(root) for arg in ("--ro-bind", path, path)]
    argv += ["--bind", str(source), str(root)]
    for rel in shared:
        argv += ["--ro-bind", str(root / rel), str(root / rel)]
    argv += ["--unshare-pid", "--die-with-parent", "--new-session"]
    if not network:
        argv.append("--unshare-net")
    return [*argv, "--chdir", str(cwd), "--"]


def _toolchain_under_tmp(root: Path) -> list[str]:
    """Interpreter and PATH folders that live under /tmp (e.g. a virtualenv in a CI
    checkout): the private /tmp would hide them, so they are bound back read-only."""
    found: set[str] = set()
    for candidate in (sys.prefix, sys.base_prefix, *os.environ.get("PATH", "").split(os.pathsep)):
        if not candidate:
            continue
        real = os.path.realpath(candidate)
        if (real == "/tmp" or not real.startswith("/tmp/")) or not os.path.isdir(real):
            continue
        if real == str(root) or real.startswith(str(root) + "/"):
            continue
        found.add(real)
    return sorted(p for p in found if not any(p.startswith(q + "/") for q in found))


@functools.lru_cache(maxsize=1)
def bubblewrap_status() -> tuple[str | None, str]:
    """(path of a working bwrap or None, reason). Probed once per process."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None, "bwrap not found on PATH"
    with tempfile.TemporaryDirectory(prefix="agentls-probe-") as tmp:
        path = Path(tmp).resolve()
        argv = [*_bwrap_argv(exe, path, path, (), path, network=False), "true"]
        try:
            done = subprocess.run(argv, capture_output=True, timeout=10, env=scrubbed_env())
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"bwrap failed to start: {exc}"
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip()[:200]
        return None, f"bwrap does not work here: {detail or f'exit code {done.returncode}'}"
    return exe, "bubblewrap works"


def detect_kind() -> SandboxKind:
    return "bubblewrap" if bubblewrap_status()[0] else "none"


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """How shell tools confine their processes. `kind` defaults to what works here."""

    kind: SandboxKind = field(default_factory=detect_kind)
    network: bool = False
    scratch: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("bubblewrap", "none"):
            raise ValueError(f"unknown sandbox kind {self.kind!r}; expected bubblewrap or none")
        if self.kind == "bubblewrap" and bubblewrap_status()[0] is None:
            raise ValueError(f"bubblewrap sandbox requested but {bubblewrap_status()[1]}")

    def describe(self) -> str:
        if self.kind == "none":
            exe, reason = bubblewrap_status()
            if exe is None:
                return f"none: bubblewrap not available ({reason})"
            return "none: OS sandbox disabled by configuration"
        place = "scratch copy of the workspace" if self.scratch else "writable workspace"
        net = "network allowed" if self.network else "no network"
        return f"bubblewrap (read-only system, {place}, {net})"


def sandbox_for(ctx: ToolContext) -> SandboxConfig:
    """The run's sandbox config, or the auto-detected default."""
    return ctx.sandbox if isinstance(ctx.sandbox, SandboxConfig) else SandboxConfig()


def describe_sandbox(config: SandboxConfig | None = None) -> str:
    """One line for `agentls tools`, e.g. 'bubblewrap (read-only system, ...)'."""
    return (config or SandboxConfig()).describe()


def scrubbed_env(
    environ: Mapping[str, str] | None = None, *, network: bool = False, bubblewrap: bool = False
) -> dict[str, str]:
    """The child's environment: allow-listed names only, never a secret-looking one."""
    source = os.environ if environ is None else environ
    env: dict[str, str] = {}
    for name, value in source.items():
        allowed = name in ALLOWED_ENV or name.startswith("LC_")
        if network and name in PROXY_ENV and "@" not in value:
            allowed = True
        if allowed and not SECRET_NAME.search(name):
            env[name] = value
    env.setdefault("PATH", os.defpath)
    env.update(FIXED_ENV)
    if bubblewrap:
        env.update(BWRAP_ENV)
    return env


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
    sandbox: SandboxKind
    scratch: bool  # ran in a scratch copy of the workspace

    def tail(self, limit: int = 4000) -> str:
        """The last `limit` characters of stdout and stderr, for error messages."""
        parts = [text for text in (self.stdout, self.stderr) if text.strip()]
        joined = "\n".join(parts)
        return joined[-limit:] if len(joined) > limit else joined


def _make_scratch(
    root: Path, overlay: Mapping[str, bytes | None], kind: SandboxKind
) -> tuple[Path, Path, list[str]]:
    """Copy the workspace to a temp dir and apply the overlay: (temp dir, copy, shared dirs)."""
    tmp = Path(tempfile.mkdtemp(prefix="agentls-scratch-")).resolve()
    copy = tmp / (root.name or "workspace")
    shared: list[str] = []
    # A shared directory that the overlay writes into is copied instead.
    touched = {parent.as_posix() for rel in overlay for parent in Path(rel).parents}

    def ignore(dirpath: str, names: list[str]) -> set[str]:
        skip = {n for n in names if n in SKIPPED_DIRS}
        if "Cargo.toml" in names and "target" in names:
            skip.add("target")  # a Rust build directory: rebuilt, never copied
        for name in names:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            is_dir = os.path.isdir(full) and not os.path.islink(full)
            if name in SHARED_DIRS and rel not in touched and is_dir:
                skip.add(name)
                shared.append(rel)
        return skip

    # Special files (sockets, fifos) cannot be copied; everything else is there.
    with contextlib.suppress(shutil.Error):
        shutil.copytree(root, copy, symlinks=True, ignore=ignore)
    for rel in shared:
        if kind == "bubblewrap":
            (copy / rel).mkdir(parents=True, exist_ok=True)  # mount point
        else:
            (copy / rel).symlink_to(root / rel, target_is_directory=True)
    for rel, data in overlay.items():
        target = confine(copy, rel)
        if data is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return tmp, copy, shared


def run_process(
    command: str | Sequence[str],
    cwd: str | os.PathLike[str],
    timeout_s: float,
    ctx: ToolContext,
    *,
    output_cap_bytes: int = DEFAULT_OUTPUT_CAP,
    overlay: Mapping[str, bytes | None] | None = None,
    config: SandboxConfig | None = None,
) -> ProcessResult:
    """Run a shell command string (via /bin/sh -c) or an argv list inside the sandbox.

    `cwd` must lie inside the workspace (PathOutsideWorkspace otherwise). `overlay` maps
    workspace-relative paths to new content (None deletes): the command then runs in a
    scratch copy with the overlay applied. The config defaults to `ctx.sandbox`.
    """
    config = config or sandbox_for(ctx)
    root = ctx.workspace.root
    real_cwd = confine(root, cwd, allow_absolute=True)
    argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("empty command")
    bubblewrap = config.kind == "bubblewrap"
    env = scrubbed_env(network=config.network, bubblewrap=bubblewrap)
    use_scratch = config.scratch or overlay is not None
    tmp: Path | None = None
    shared: list[str] = []
    try:
        source, run_cwd = root, real_cwd
        if use_scratch:
            tmp, source, shared = _make_scratch(root, overlay or {}, config.kind)
            if not bubblewrap:
                run_cwd = source / real_cwd.relative_to(root)
        if bubblewrap:
            exe = bubblewrap_status()[0] or "bwrap"
            argv = [*_bwrap_argv(exe, root, source, shared, real_cwd, config.network), *argv]
        outcome = run_tree(argv, run_cwd, env, timeout_s, ctx.cancel, output_cap_bytes)
    finally:
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
    )
