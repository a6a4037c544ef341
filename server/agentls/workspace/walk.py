"""A .gitignore-aware walk of the workspace.

Honours every `.gitignore` on the way down (nested ones apply to their own folder), the
repository's `.git/info/exclude`, and a fixed list of folders nobody wants indexed
(`.git`, `node_modules`, virtual environments, caches). Symlinks are not followed.
Must not know: languages or parsing; callers filter by suffix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pathspec

ALWAYS_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".agentls",
        ".idea",
        ".vscode-test",
    }
)


def _load_spec(path: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        lines = path.read_text("utf-8", "replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


class FileWalker:
    """Walks a root and yields relative POSIX paths of files that are not ignored."""

    def __init__(self, root: str | os.PathLike[str], *, suffixes: Iterable[str] | None = None) -> None:
        self.root = Path(os.path.realpath(root))
        self.suffixes = tuple(suffixes) if suffixes is not None else None
        self._root_specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        exclude = _load_spec(self.root / ".git" / "info" / "exclude")
        if exclude is not None:
            self._root_specs.append(("", exclude))

    def is_ignored(self, rel: str, is_dir: bool = False) -> bool:
        """Whether a relative path is ignored (checks every .gitignore above it)."""
        parts = rel.split("/")
        if any(p in ALWAYS_SKIPPED_DIRS for p in (parts if is_dir else parts[:-1])):
            return True
        specs = list(self._root_specs)
        for i in range(len(parts)):
            base = "/".join(parts[:i])
            spec = _load_spec(self.root / base / ".gitignore")
            if spec is not None:
                specs.append((base, spec))
        return self._matches(specs, rel, is_dir)

    @staticmethod
    def _matches(specs: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str, is_dir: bool) -> bool:
        ignored = False
        for base, spec in specs:
            sub = rel[len(base) + 1 :] if base else rel
            if is_dir:
                sub += "/"
            result = spec.check_file(sub)
            if result.include is not None:
                ignored = bool(result.include)
        return ignored

    def walk(self) -> Iterator[str]:
        yield from self._walk(self.root, "", self._root_specs)

    def _walk(
        self, folder: Path, rel: str, specs: list[tuple[str, pathspec.GitIgnoreSpec]]
    ) -> Iterator[str]:
        local = _load_spec(folder / ".gitignore")
        if local is not None:
            specs = [*specs, (rel, local)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            try:
                if entry.is_symlink():
                    continue
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if entry.name in ALWAYS_SKIPPED_DIRS or (specs and self._matches(specs, child, True)):
                    continue
                yield from self._walk(Path(entry.path), child, specs)
            else:
                if self.suffixes is not None and not entry.name.endswith(self.suffixes):
                    continue
                if specs and self._matches(specs, child, False):
                    continue
                yield child
