"""The on-disk index cache: extracted FileIndex objects keyed by path, size and mtime.

Invalidated as a whole when the grammars (queries, grammar packages) or the format
change. Written atomically; a corrupt or foreign cache is ignored, never fatal.
Must not know: parsing, resolution, LSP.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import tempfile
from importlib import metadata
from pathlib import Path

from agentls.analysis.grammar import grammars_dir
from agentls.analysis.model import FileIndex

FORMAT = 5
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


def load(cache_dir: Path, root: Path) -> dict[str, FileIndex]:
    path = cache_dir / "index.pickle"
    try:
        with open(path, "rb") as fh:
            header = pickle.load(fh)
            if header != {"format": FORMAT, "fingerprint": fingerprint(), "root": str(root)}:
                return {}
            files = pickle.load(fh)
    except FileNotFoundError:
        return {}
    except Exception as exc:  # corrupt cache: start cold
        log.warning("ignoring unreadable index cache %s: %s", path, exc)
        return {}
    return files if isinstance(files, dict) else {}


def save(cache_dir: Path, root: Path, files: dict[str, FileIndex]) -> None:
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=".index-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump({"format": FORMAT, "fingerprint": fingerprint(), "root": str(root)}, fh, protocol=5)
            pickle.dump(files, fh, protocol=5)
        os.replace(tmp, cache_dir / "index.pickle")
    except OSError as exc:
        log.warning("could not write the index cache in %s: %s", cache_dir, exc)
