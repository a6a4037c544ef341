"""The bubblewrap backend: the command in new namespaces over an empty root.

Only the host view (hostview.py) is mounted, read-only; the workspace (or a scratch copy
of it, at the workspace's own path) is the one writable place besides a private /tmp that
is also HOME. Every namespace is new (user, mount, PID, IPC, UTS, cgroup, and the network
unless it is allowed), so the command sees no other process and killing bubblewrap kills
everything it started. All capabilities are dropped — bubblewrap keeps them for root
otherwise, and a root command could remount the read-only folders writable — and
bubblewrap sets no_new_privs, so setuid binaries gain nothing.
Must not know: tools, the agent, LSP, what the command is.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from agentls.tools.sandbox.hostview import host_view
from agentls.tools.sandbox.probe import probe

#: HOME and TMPDIR inside the sandbox (on its private /tmp).
PRIVATE_HOME = "/tmp/home"


def bwrap_argv(
    exe: str,
    root: Path,
    source: Path,
    shared: Sequence[str],
    cwd: Path,
    *,
    network: bool,
    writable_shared: bool = False,
    path_var: str | None = None,
) -> list[str]:
    """bubblewrap's arguments up to `--`: `source` is mounted writable at `root`; each
    `shared` folder (relative) is mounted from the real workspace, read-only unless
    `writable_shared`."""
    view = host_view(path_var, exclude=(str(root), str(source)))
    argv = [exe, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if network:
        argv.append("--share-net")
    # The private /tmp first: a toolchain under the host's /tmp (a CI checkout's
    # virtualenv) is then mounted over it, not hidden by it.
    argv += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--dir", PRIVATE_HOME]
    for folder in view.readable:
        argv += ["--ro-bind", folder, folder]
    for link, target in view.symlinks:
        argv += ["--symlink", target, link]
    for path in view.hidden_files:
        argv += ["--ro-bind", "/dev/null", path]
    for path in view.hidden_dirs:
        argv += ["--tmpfs", path, "--remount-ro", path]
    resolv = os.path.realpath("/etc/resolv.conf")
    if network and not resolv.startswith("/etc/") and os.path.exists(resolv):
        argv += ["--ro-bind", os.path.dirname(resolv), os.path.dirname(resolv)]  # DNS
    argv += ["--bind", str(source), str(root)]
    for rel in shared:
        kind = "--bind" if writable_shared and rel != ".git" else "--ro-bind"
        argv += [kind, str(root / rel), str(root / rel)]
    return [*argv, "--chdir", str(cwd), "--"]


@functools.lru_cache(maxsize=1)
def bubblewrap_status() -> tuple[str | None, str]:
    """(path of a working bwrap or None, reason). Probed once per process: a real run of
    `true` in the sandbox as it will be used (user namespaces may be off, for example)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None, "bwrap not found on PATH"
    why = probe(
        lambda folder: bwrap_argv(exe, folder, folder, (), folder, network=False),
        timeout=10,
        launcher="bwrap",
        backend="bwrap",
    )
    return (None, why) if why else (exe, "bubblewrap works")
