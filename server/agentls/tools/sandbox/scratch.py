"""Scratch copies of the workspace, and what a command changed in one.

A command that must not touch the real files (tests against pending proposals, any
shell command under approval `ask`/`never`) runs in a copy: the workspace copied to a
temp folder (caches left out), with an overlay of new contents applied. Heavy shared
folders (.git, node_modules, virtualenvs) are not copied: bubblewrap mounts them from
the real workspace, the other backends get a symlink to them. Afterwards `changes`
compares the copy with the real workspace file by file, honouring the workspace's
.gitignore (build artefacts and caches are not changes).
Must not know: tools, proposals, the agent, LSP.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agentls.workspace import FileWalker, confine

#: In a scratch copy these are mounted (or linked) from the real workspace, not copied.
SHARED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", ".tox"})
#: ... and these caches are left out of the copy altogether.
SKIPPED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
#: Files larger than this are not turned into proposals (reported instead).
MAX_CHANGED_BYTES = 2_000_000
#: More changed files than this are not one reviewable proposal: none is kept (reported).
MAX_CHANGED_FILES = 500


@dataclass(slots=True)
class Scratch:
    tmp: Path  # remove this when done
    copy: Path  # the workspace's copy
    shared: list[str]  # relative folders not copied


def make_scratch(root: Path, overlay: Mapping[str, bytes | None], *, link_shared: bool) -> Scratch:
    """Copy the workspace to a temp dir and apply the overlay (None deletes a file).
    `link_shared`: shared folders become symlinks to the real ones (else empty mount
    points for bubblewrap)."""
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
        if link_shared:
            (copy / rel).symlink_to(root / rel, target_is_directory=True)
        else:
            (copy / rel).mkdir(parents=True, exist_ok=True)  # mount point
    for rel, data in overlay.items():
        target = confine(copy, rel)
        if data is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return Scratch(tmp, copy, shared)


@dataclass(slots=True)
class Changes:
    """Files a command changed in a scratch copy: relative path → new bytes, None = deleted."""

    files: dict[str, bytes | None] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # path → why it is not a change


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def changes(root: Path, copy: Path, base: Mapping[str, bytes | None]) -> Changes:
    """What differs in `copy` from the workspace as the command saw it (`root` with the
    overlay `base` applied), ignoring what the workspace's .gitignore ignores."""
    rules = FileWalker(root)
    before = set(rules.walk()) | {rel for rel, data in base.items() if data is not None}
    before -= {rel for rel, data in base.items() if data is None}
    after = {rel for rel in FileWalker(copy).walk() if not rules.is_ignored(rel)}
    out = Changes()
    for rel in sorted(before | after):
        new_path = copy / rel
        if rel not in after and not os.path.lexists(new_path):
            out.files[rel] = None
            continue
        if new_path.is_symlink() or not new_path.is_file():
            continue
        if new_path.stat().st_size > MAX_CHANGED_BYTES:
            out.skipped[rel] = f"larger than {MAX_CHANGED_BYTES} bytes"
            continue
        old = base[rel] if rel in base else _read(root / rel)
        new = _read(new_path)
        if new is not None and new != old:
            out.files[rel] = new
    if len(out.files) > MAX_CHANGED_FILES:
        why = f"one of {len(out.files)} changed files, more than {MAX_CHANGED_FILES} in one command"
        out.skipped.update(dict.fromkeys(sorted(out.files)[:20], why))
        out.files.clear()
    return out
