"""The Landlock launcher: run as the sandboxed child itself (`python -I landlock_child.py
SPEC -- ARGV...`), it confines its own process and then execs the command.

Confinement is applied here, in the child, not in agentls (a Landlock domain is for
life) and not in a `preexec_fn` (unsafe with threads). In order, as root: a new network
namespace when the network is off (nothing at all reachable, loopback included), new PID
and mount namespaces with their own /proc (no other process visible; this launcher stays
outside and passes the exit status on); then always: every capability dropped for good (bounding set, ambient set, and the securebits that
stop root from regaining them on exec); then the Landlock ruleset — which also sets
no_new_privs, so setuid binaries gain nothing — allowing only the paths in SPEC, no TCP
bind/connect unless the network is allowed, no signals or abstract sockets outside the
sandbox. Anything that fails stops the launch with exit code 126: the command never runs
less confined than asked. Imports nothing from agentls (it runs with `-I`).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from typing import Any

EXIT_REFUSED = 126
CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x2, 0x4, 0x8
MS_RDONLY, MS_REMOUNT, MS_BIND = 0x1, 0x20, 0x1000
MS_REC, MS_PRIVATE = 0x4000, 0x40000
PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
# NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED, KEEP_CAPS_LOCKED
SECUREBITS = 0x01 | 0x02 | 0x04 | 0x08 | 0x20
CAP_SETPCAP = 8
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _effective_caps() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("CapEff:"):
                return int(line.split()[1], 16)
    return 0


def drop_capabilities() -> None:
    """No capability now or after any exec, also for root."""
    if _effective_caps() & (1 << CAP_SETPCAP):
        _check(_libc.prctl(PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0), "securebits")
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as fh:
            last = int(fh.read())
        for cap in range(last + 1):
            _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap}")
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)  # EINVAL on old kernels
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    if _effective_caps():
        raise OSError("capabilities are still held after dropping them")


def apply_landlock(spec: dict[str, Any]) -> None:
    from py_landlock import AccessFs, Landlock, get_abi_version
    from py_landlock.abi import get_supported_fs

    supported = get_supported_fs(get_abi_version())
    read = AccessFs.READ_FILE | AccessFs.READ_DIR | AccessFs.EXECUTE
    file_rights = AccessFs.READ_FILE | AccessFs.EXECUTE
    device = AccessFs.READ_FILE | AccessFs.WRITE_FILE | AccessFs.TRUNCATE | AccessFs.IOCTL_DEV
    ruleset = Landlock(strict=True)
    if spec.get("network"):
        ruleset.allow_all_network()
    for path in filter(_reachable, spec.get("read", [])):
        rights = read if os.path.isdir(path) else file_rights
        ruleset.add_path_rule(path, access=rights & supported)
    for path in filter(_reachable, spec.get("devices", [])):
        ruleset.add_path_rule(path, access=device & supported)
    for path in filter(_reachable, spec.get("write", [])):
        ruleset.add_path_rule(path, access=supported)
    ruleset.apply()


def _reachable(path: str) -> bool:
    """A path this process cannot even open gets no rule (it stays out of reach anyway)."""
    try:
        os.close(os.open(path, os.O_PATH | os.O_CLOEXEC))
    except OSError:
        return False
    return True


def _wait_and_exit(pid: int) -> None:
    """The launcher outside the new PID namespace: pass the command's status on."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: os.kill(pid, signal.SIGKILL))
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except ChildProcessError:
            os._exit(EXIT_REFUSED)
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def isolate_processes() -> None:
    """As root: a new PID namespace with its own /proc (a new mount namespace), so the
    command sees no process outside it; the command runs as its PID 1, and when it
    exits everything it left behind dies with it."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWPID), "new PID and mount namespaces")
    pid = os.fork()
    if pid:
        _wait_and_exit(pid)
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "private mounts")
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    _check(_libc.mount(b"proc", b"/proc", b"proc", flags, None), "a new /proc")


def bind_mounts(binds: list[list[Any]]) -> None:
    """A scratch copy mounted at the workspace's own path (as under bubblewrap), shared
    folders of the real workspace inside it, read-only unless marked writable."""
    for source, target, writable in binds:
        src, dst = os.fsencode(source), os.fsencode(target)
        _check(_libc.mount(src, dst, None, MS_BIND | MS_REC, None), f"binding {target}")
        if not writable:
            flags = MS_BIND | MS_REMOUNT | MS_RDONLY
            _check(_libc.mount(None, dst, None, flags, None), f"read-only {target}")


def launch(spec: dict[str, Any], argv: list[str]) -> None:
    if os.geteuid() == 0:  # what needs privileges first, then every privilege dropped
        if not spec.get("network"):
            _check(_libc.unshare(CLONE_NEWNET), "new network namespace")
        isolate_processes()
        bind_mounts(spec.get("binds") or [])
        if spec.get("cwd"):
            os.chdir(spec["cwd"])  # the same path, now seen through the mounts
    elif spec.get("binds"):
        raise OSError("bind mounts need root")
    drop_capabilities()
    apply_landlock(spec)
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:  # shell semantics: 127 not found, 126 cannot run
        print(f"{argv[0]}: {exc.strerror}", file=sys.stderr)
        sys.exit(127 if isinstance(exc, FileNotFoundError) else EXIT_REFUSED)


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print("usage: landlock_child.py SPEC_JSON -- ARGV...", file=sys.stderr)
        return EXIT_REFUSED
    try:
        launch(json.loads(sys.argv[1]), sys.argv[3:])
    except Exception as exc:  # never run the command less confined than asked
        print(f"agentls sandbox (landlock): not run: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    return EXIT_REFUSED  # unreachable: execvp does not return


if __name__ == "__main__":
    sys.exit(main())
