"""Path confinement: the one function every layer uses to turn a user, model or editor
path into a real path inside the workspace root.

A path is refused when, after resolving `..`, symlinks (file or directory) and absolute
forms, it does not lie inside the root; when it holds a NUL byte; or when it is empty.
Must not know: anything about tools, LSP or the agent.
"""

from __future__ import annotations

import os
from pathlib import Path


class PathOutsideWorkspace(ValueError):
    """The path resolves outside the workspace root (or is not a usable path)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"path {path!r} is refused: {reason}")
        self.path = path
        self.reason = reason


def _real_root(root: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(root))


def confine(
    root: str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    allow_absolute: bool = False,
) -> Path:
    """Resolve `path` against `root` and return the real absolute path inside the root.

    Relative paths are taken from the root. Absolute paths are refused unless
    `allow_absolute` (the editor sends absolute URIs) and they resolve inside the root.
    Symlinks are followed: a link inside the root that points outside is refused.
    The path need not exist; its existing prefix is resolved.
    """
    text = os.fspath(path)
    if "\x00" in text:
        raise PathOutsideWorkspace(text, "it contains a NUL byte")
    if text == "":
        raise PathOutsideWorkspace(text, "it is empty")
    real_root = _real_root(root)
    candidate = Path(text)
    if candidate.is_absolute():
        if not allow_absolute:
            raise PathOutsideWorkspace(text, "absolute paths are not allowed; use a path relative to the workspace root")
    else:
        candidate = real_root / candidate
    try:
        resolved = Path(os.path.realpath(candidate))
    except (OSError, ValueError) as exc:  # e.g. ELOOP, name too long
        raise PathOutsideWorkspace(text, f"it cannot be resolved ({exc})") from exc
    if resolved != real_root and real_root not in resolved.parents:
        raise PathOutsideWorkspace(text, f"it resolves outside the workspace root {str(real_root)!r}")
    return resolved


def to_relative(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> str:
    """The POSIX path of a confined path relative to the root ('.' for the root itself)."""
    resolved = confine(root, path, allow_absolute=True)
    rel = resolved.relative_to(_real_root(root)).as_posix()
    return rel or "."
