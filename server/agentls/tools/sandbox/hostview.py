"""What of the host a sandboxed command may see: the system's own folders and the
toolchains it runs, never the home directory or other files outside the workspace.

Both confining backends build their view from here: bubblewrap mounts these folders
read-only into an empty root, Landlock allows reading (and executing) beneath them only.
A file or folder in /etc that is not world-readable (shadow, private keys) stays hidden:
the command sees what an unprivileged user would, even when agentls runs as root.
Must not know: any backend's mechanics, tools, the agent, LSP.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
from dataclasses import dataclass

#: The system's own folders (those that exist here are shown, read-only).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
#: PATH entries whose parent is the toolchain they run (pyenv's, rbenv's shims call into
#: ~/.pyenv/libexec and versions/). Any other PATH folder is shown alone, never its
#: parent: ~/bin must not show the whole home, ~/.cargo/bin not ~/.cargo's credentials.
TOOLCHAIN_LEAVES = frozenset({"shims"})
#: Secrets are looked for here (a walk of the folder, once per process).
SECRET_ROOTS = ("/etc",)
_WALK_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class HostView:
    """Real paths shown read-only, and the ones among them hidden again."""

    readable: tuple[str, ...]  # folders (no nesting between them), real paths
    symlinks: tuple[tuple[str, str], ...]  # (path, target) such as /bin → usr/bin
    hidden_files: tuple[str, ...]
    hidden_dirs: tuple[str, ...]


def _under(path: str, folders: set[str] | tuple[str, ...]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _too_wide(folder: str) -> bool:
    """A PATH entry never shown: the root, a shared temp folder, the home directory or a
    folder holding it (PATH=$HOME:... must not show the home)."""
    home = os.path.realpath(os.path.expanduser("~"))
    shared_tmp = {os.path.realpath(p) for p in ("/tmp", "/var/tmp", "/dev/shm")}
    return folder == "/" or folder in shared_tmp or _under(home, (folder,))


def _toolchain_dirs(path_var: str) -> set[str]:
    """The interpreter agentls runs (its tests may use it) and each PATH folder that
    lies outside the system folders, as real paths (a toolchain root for shims)."""
    found: set[str] = set()
    candidates = [sys.prefix, sys.base_prefix, *path_var.split(os.pathsep)]
    for candidate in candidates:
        if not candidate or not os.path.isabs(candidate):
            continue
        real = os.path.realpath(candidate)
        if not os.path.isdir(real) or _too_wide(real):
            continue
        leaf = os.path.basename(real) in TOOLCHAIN_LEAVES and os.path.dirname(real) != "/"
        if leaf and candidate not in (sys.prefix, sys.base_prefix):
            real = os.path.dirname(real)
        found.add(real)
    return found


@functools.lru_cache(maxsize=8)
def _private_entries(root: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(files, folders) under `root` that are not world-readable, outermost folders only."""
    files: list[str] = []
    dirs: list[str] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        for name in list(dirnames):
            full = os.path.join(dirpath, name)
            try:
                mode = os.lstat(full).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and not mode & stat.S_IROTH:
                dirs.append(full)
                dirnames.remove(name)  # hidden whole: no need to look inside
        for name in filenames:
            full = os.path.join(dirpath, name)
            try:
                mode = os.lstat(full).st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
                files.append(full)
        seen += len(filenames) + len(dirnames)
        if seen > _WALK_LIMIT:
            break
    return tuple(files), tuple(dirs)


def host_view(path_var: str | None = None, *, exclude: tuple[str, ...] = ()) -> HostView:
    """The folders to show for a command whose PATH is `path_var` (default: ours).

    `exclude` lists real paths (the workspace, a scratch copy) that are shown otherwise
    (writable): a toolchain folder inside one of them is not listed twice.
    """
    path_var = os.environ.get("PATH", os.defpath) if path_var is None else path_var
    readable: set[str] = set()
    symlinks: list[tuple[str, str]] = []
    for folder in SYSTEM_DIRS:
        if os.path.islink(folder):
            symlinks.append((folder, os.readlink(folder)))
        elif os.path.isdir(folder):
            readable.add(folder)
    for folder in _toolchain_dirs(path_var):
        if not _under(folder, readable) and not _under(folder, exclude):
            readable.add(folder)
    # Keep only the outermost folders (a toolchain under /usr is shown already).
    outer = sorted(f for f in readable if not any(f != g and _under(f, (g,)) for g in readable))
    files: list[str] = []
    dirs: list[str] = []
    for root in SECRET_ROOTS:
        if _under(root, tuple(outer)):
            more_files, more_dirs = _private_entries(root)
            files += more_files
            dirs += more_dirs
    return HostView(tuple(outer), tuple(symlinks), tuple(files), tuple(dirs))
