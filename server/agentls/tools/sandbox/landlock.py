"""The Landlock backend (Linux ≥ 5.13, unprivileged): the command confines itself.

The argv starts our interpreter on `landlock_child.py` with a spec — the folders it may
read and execute (the host view, with /etc's private entries left out, and the real
workspace), the ones it may write (the workspace or its scratch copy, a private HOME),
a few device files — then execs the command. Landlock ABI ≥ 4 also refuses TCP
bind/connect when the network is off (UDP is not covered by Landlock; as root the child
gets a new, empty network namespace as well); ABI ≥ 6 keeps signals and abstract
sockets inside the sandbox. As root the command also gets its own PID namespace and
/proc; otherwise other processes stay listed in /proc, but Landlock's ptrace rule keeps
their memory, environment and root folder out of reach.
Must not know: tools, the agent, LSP, what the command is.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from agentls.tools.sandbox.hostview import SECRET_ROOTS, HostView, host_view
from agentls.tools.sandbox.probe import probe

CHILD = str(Path(__file__).with_name("landlock_child.py"))
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
#: Read-only besides the host view: the kernel's views of this process and the machine.
KERNEL_DIRS = ("/proc", "/sys")


def _readable_without(root: str, hidden: set[str]) -> list[str]:
    """`root` itself, or — when something under it is hidden — its other entries."""
    if not any(h.startswith(root + "/") for h in hidden):
        return [root]
    out: list[str] = []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    for name in names:
        full = os.path.join(root, name)
        if full in hidden or os.path.islink(full):
            continue  # a link is followed by Landlock: its target's own rule decides
        if os.path.isdir(full) and not os.path.islink(full):
            out += _readable_without(full, hidden)
        elif os.path.exists(full):
            out.append(full)
    return out


def readable_paths(view: HostView) -> list[str]:
    hidden = set(view.hidden_files) | set(view.hidden_dirs)
    out: list[str] = []
    for folder in view.readable:
        if any(root == folder or root.startswith(folder + "/") for root in SECRET_ROOTS):
            for root in SECRET_ROOTS:
                out += _readable_without(root, hidden)
            if folder in SECRET_ROOTS:
                continue
        out.append(folder)
    return out


def landlock_argv(
    workspace: Path,
    writable: Sequence[Path],
    home: Path,
    *,
    network: bool,
    path_var: str | None = None,
    binds: Sequence[tuple[Path, Path, bool]] = (),
    cwd: Path | None = None,
) -> list[str]:
    """The launcher's argv up to and including `--`. `binds` (source, target, writable),
    root only: mounted in the command's own mount namespace, then `cwd` is entered."""
    view = host_view(path_var, exclude=tuple(str(p) for p in (workspace, *writable)))
    read = [*readable_paths(view), *(d for d in KERNEL_DIRS if os.path.isdir(d)), str(workspace)]
    resolv = os.path.realpath("/etc/resolv.conf")
    if network and os.path.isfile(resolv):
        read.append(resolv)  # DNS, e.g. systemd-resolved's file under /run
    spec = {
        "read": read,
        "write": [str(p) for p in (*writable, home)],
        "devices": [d for d in DEVICES if os.path.exists(d)],
        "network": network,
        "binds": [[str(src), str(dst), writable] for src, dst, writable in binds],
        "cwd": str(cwd) if cwd is not None else None,
    }
    return [sys.executable, "-I", CHILD, json.dumps(spec), "--"]


@functools.lru_cache(maxsize=1)
def landlock_status() -> tuple[bool, str]:
    """(works, reason): a real confined run of `true`, probed once per process."""
    if not sys.platform.startswith("linux"):
        return False, f"Landlock is a Linux feature (this is {sys.platform})"
    try:
        from py_landlock import get_abi_version

        abi = int(get_abi_version())
    except Exception as exc:  # not installed, syscall missing, disabled at boot
        return False, f"Landlock is not available: {exc}"
    why = probe(
        lambda folder: landlock_argv(folder, [folder], folder, network=False),
        timeout=20,
        launcher="the Landlock launcher",
        backend="Landlock",
    )
    if why:
        return False, why
    if abi < 4:
        return True, f"Landlock ABI {abi} works (no TCP restriction below ABI 4)"
    return True, f"Landlock ABI {abi} works"
