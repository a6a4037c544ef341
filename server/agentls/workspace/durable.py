"""Writing files so that a crash loses nothing and leaves nothing behind.

- `state_folder(path)`: makes a folder under `<root>/.agentls/` (the state agentls keeps in
  a workspace: traces, caches, memory, the write lock); a `.agentls` folder it makes gets
  its own `.gitignore` (`*`), so the user's Source Control stays clean.
- `replace_files(root, {path: bytes | None})`: all-or-nothing over several files. Every
  new content is first written to a temporary file under `.agentls/tmp/` (same
  filesystem, never in the user's tree) and fsync'd; only when all are written are they
  renamed over their targets (each folder fsync'd after), and a deletion is an unlink. An
  OS failure before the renames (ENOSPC, EROFS, EACCES, an immutable file) changes
  nothing; one during them puts back the files already replaced. A target on another
  filesystem gets its temporary file beside it, and a marker under `.agentls/tmp/` says
  where, so a crash leaves nothing that the next `sweep` does not remove.
- `sweep(root)`: removes the temporary files of processes that are gone (a `kill -9`
  during a write); called under the write lock before each write.
- `refusal(path)`: why an existing file must not be replaced (no write bit, or not
  writable by us: immutable), honoured like an editor does.

Temporary names carry the writer's pid: `<pid>-<random>.tmp`. Must not know: proposals,
runs, tools, LSP.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from agentls.workspace import hooks
from agentls.workspace.paths import confine

STATE_DIR = ".agentls"
TMP_DIR = "tmp"
GITIGNORE = "*\n"


def state_folder(path: str | os.PathLike[str]) -> Path:
    """`mkdir -p path`; a `.agentls` folder this creates gets its `.gitignore` (`*`). One
    that exists is left as it is (the user may keep it in git)."""
    folder = Path(path)
    if folder.is_dir():
        return folder
    state = next((p for p in (folder, *folder.parents) if p.name == STATE_DIR), None)
    fresh = state is not None and not state.exists()
    folder.mkdir(parents=True, exist_ok=True)
    if fresh and state is not None:
        with contextlib.suppress(OSError):
            (state / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    return folder


def tmp_folder(root: str | os.PathLike[str]) -> Path:
    return state_folder(Path(root) / STATE_DIR / TMP_DIR)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _owner(name: str) -> int | None:
    head = name.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def sweep(root: str | os.PathLike[str]) -> list[str]:
    """Remove the temporary files (and the files their markers name) of processes that are
    gone; the names removed. Never raises."""
    folder = Path(root) / STATE_DIR / TMP_DIR
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        pid = _owner(entry.name)
        if pid is None or pid == os.getpid() or pid_alive(pid):
            continue
        with contextlib.suppress(OSError):
            if entry.name.endswith(".where"):
                beside = Path(Path(entry.path).read_text("utf-8"))
                if beside.name.startswith(f".{pid}-") and beside.name.endswith(".agentls-tmp"):
                    beside.unlink(missing_ok=True)
                    removed.append(str(beside))
            os.unlink(entry.path)
            removed.append(entry.name)
    return removed


def refusal(target: Path) -> OSError | None:
    """Why `target` (if it exists) must not be replaced, as the OSError to raise: not a
    regular file, on a read-only filesystem, read-only (no write bit), or not writable by
    us (immutable, when its mode would let us)."""
    try:
        st = target.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return IsADirectoryError(errno.EISDIR, "it is not a regular file", str(target))
    if os.statvfs(target).f_flag & os.ST_RDONLY:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), str(target))
    if not st.st_mode & 0o222:
        return PermissionError(errno.EACCES, "the file is read-only", str(target))
    if not os.access(target, os.W_OK):
        mine = os.geteuid() in (0, st.st_uid)
        code = errno.EPERM if mine else errno.EACCES
        return PermissionError(code, "the file cannot be written", str(target))
    return None


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _Staged:
    """One new content written and fsync'd to its temporary file, not yet in place."""

    def __init__(self, root: Path, target: Path, data: bytes) -> None:
        self.target = target
        self.marker: Path | None = None
        tmp = tmp_folder(root)
        token = f"{os.getpid()}-{secrets.token_hex(6)}"
        if os.stat(tmp).st_dev == os.stat(target.parent).st_dev:
            self.path = tmp / f"{token}.tmp"
        else:  # another filesystem: beside the target, with a marker saying where
            self.path = target.parent / f".{token}.agentls-tmp"
            self.marker = tmp / f"{token}.where"
            self.marker.write_text(str(self.path), encoding="utf-8")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                if target.exists():
                    os.fchmod(fd, target.stat().st_mode & 0o7777)
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.fchmod(fd, 0o666 & ~umask)
                os.fsync(fd)
            finally:
                os.close(fd)
        except BaseException:
            self.discard()
            raise
        hooks.reached("temp-written")

    def discard(self) -> None:
        for path in (self.path, self.marker):
            if path is not None:
                with contextlib.suppress(OSError):
                    path.unlink(missing_ok=True)

    def put_in_place(self) -> None:
        os.replace(self.path, self.target)
        if self.marker is not None:
            with contextlib.suppress(OSError):
                self.marker.unlink()


def replace_files(root: str | os.PathLike[str], contents: Mapping[str, bytes | None]) -> None:
    """Put `contents` (workspace-relative path → bytes, None: delete) on disk, all or
    nothing; an OSError means nothing was changed (the files replaced before a failed
    rename are put back first)."""
    base = Path(root)
    targets = {confine(base, path): data for path, data in contents.items()}
    for target, data in targets.items():
        if data is not None:
            refused = refusal(target)
            if refused is not None:
                raise refused
    staged: list[tuple[Path, _Staged | None, bytes | None]] = []
    try:
        for target, data in targets.items():
            old = target.read_bytes() if target.is_file() else None
            if data is None:
                staged.append((target, None, old))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            staged.append((target, _Staged(base, target, data), old))
    except BaseException:
        for _, item, _ in staged:
            if item is not None:
                item.discard()
        raise
    done: list[tuple[Path, bytes | None]] = []
    try:
        for target, item, old in staged:
            if item is None:
                target.unlink(missing_ok=True)
            else:
                item.put_in_place()
            done.append((target, old))
            hooks.reached("replaced")
        for folder in {target.parent for target, _ in done}:
            _fsync_folder(folder)
    except OSError as exc:
        for _, item, _ in staged:
            if item is not None:
                item.discard()
        exc.changed = _put_back(base, done)  # type: ignore[attr-defined]
        raise


def changed_by(exc: OSError) -> list[str]:
    """The files a failed `replace_files` left changed (it could not put them back)."""
    return list(getattr(exc, "changed", []))


def _put_back(root: Path, done: list[tuple[Path, bytes | None]]) -> list[str]:
    """The files a failed multi-file write already replaced, as they were; the ones that
    could not be put back."""
    left: list[str] = []
    for target, old in reversed(done):
        try:
            if old is None:
                target.unlink(missing_ok=True)
            else:
                _Staged(root, target, old).put_in_place()
        except OSError:
            left.append(target.relative_to(root).as_posix())
    return left
