"""The on-disk index cache: extracted FileIndex objects keyed by path, size and mtime.

Invalidated as a whole when the grammars (queries, grammar packages) or the format
change. Written atomically (a temporary file renamed into place; the temporary files of
writers killed meanwhile are removed at the next save). The payload is followed by its
length and CRC-32, checked while it is read: a torn or corrupt cache (a crash, a full
disk, a power cut before the data reached the disk) is detected and ignored — the index
is built cold — never served. A foreign cache is ignored too, never fatal.
Must not know: parsing, resolution, LSP.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import tempfile
import zlib
from importlib import metadata
from pathlib import Path
from typing import Any

from agentls.analysis.grammar import grammars_dir
from agentls.analysis.model import FileIndex
from agentls.workspace.durable import pid_alive, state_folder

FORMAT = 6
log = logging.getLogger(__name__)


def fingerprint() -> str:
    h = hashlib.sha256(str(FORMAT).encode())
    folder = grammars_dir()
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            h.update(f.relative_to(folder).as_posix().encode())
            h.update(f.read_bytes())
    for dist in ("tree-sitter", "tree-sitter-python", "tree-sitter-typescript", "tree-sitter-javascript", "agentls"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            h.update(f"{dist}={metadata.version(dist)}".encode())
    return h.hexdigest()[:16]


class _Summed:
    """A file seen through pickle, summing (CRC-32, length) what passes either way."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh
        self.crc = 0
        self.length = 0

    def _seen(self, data: bytes | memoryview) -> None:
        self.crc = zlib.crc32(data, self.crc)
        self.length += len(data)

    def write(self, data: bytes) -> int:
        self._seen(data)
        return int(self.fh.write(data))

    def read(self, n: int = -1) -> bytes:
        data = bytes(self.fh.read(n))
        self._seen(data)
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:
        n = int(self.fh.readinto(buffer))
        self._seen(memoryview(buffer)[:n])
        return n

    def readline(self) -> bytes:
        data = bytes(self.fh.readline())
        self._seen(data)
        return data


def load(cache_dir: Path, root: Path) -> dict[str, FileIndex]:
    path = cache_dir / "index.pickle"
    try:
        with open(path, "rb") as fh:
            header = pickle.load(fh)
            if header != {"format": FORMAT, "fingerprint": fingerprint(), "root": str(root)}:
                return {}
            summed = _Summed(fh)
            files = pickle.load(summed)
            trailer = pickle.load(fh)
            if trailer != {"length": summed.length, "crc": summed.crc} or fh.read(1):
                raise ValueError("its payload does not match its length and checksum (torn)")
    except FileNotFoundError:
        return {}
    except Exception as exc:  # torn or corrupt cache: start cold
        log.warning("ignoring unreadable index cache %s: %s", path, exc)
        return {}
    return files if isinstance(files, dict) else {}


def _sweep(cache_dir: Path) -> None:
    """The temporary files of writers that are gone (killed while saving)."""
    for tmp in cache_dir.glob(".index-*.tmp"):
        pid = tmp.name.split("-")[1]
        if pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)):
            with contextlib.suppress(OSError):
                tmp.unlink()


def save(cache_dir: Path, root: Path, files: dict[str, FileIndex]) -> None:
    try:
        state_folder(cache_dir)
        _sweep(cache_dir)
        fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=f".index-{os.getpid()}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump({"format": FORMAT, "fingerprint": fingerprint(), "root": str(root)}, fh, protocol=5)
                summed = _Summed(fh)
                pickle.dump(files, summed, protocol=5)
                pickle.dump({"length": summed.length, "crc": summed.crc}, fh, protocol=5)
            os.replace(tmp, cache_dir / "index.pickle")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        log.warning("could not write the index cache in %s: %s", cache_dir, exc)
