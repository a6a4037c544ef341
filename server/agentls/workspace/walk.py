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


Specs = list[tuple[str, pathspec.GitIgnoreSpec]]


class FileWalker:
    """Walks a root and yields relative POSIX paths of files that are not ignored."""

    def __init__(self, root: str | os.PathLike[str], *, suffixes: Iterable[str] | None = None) -> None:
        self.root = Path(os.path.realpath(root))
        self.suffixes = tuple(suffixes) if suffixes is not None else None
        self._root_specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        exclude = _load_spec(self.root / ".git" / "info" / "exclude")
        if exclude is not None:
            self._root_specs.append(("", exclude))

    def is_ignored(self, rel: str, is_dir: bool = False, cache: dict[str, Specs] | None = None) -> bool:
        """Whether a relative path is ignored (checks every .gitignore above it; a caller
        asking about many paths passes a `cache`, of the specs that apply per folder)."""
        parts = rel.split("/")
        if any(p in ALWAYS_SKIPPED_DIRS for p in (parts if is_dir else parts[:-1])):
            return True
        if cache is not None:
            return self._matches(self._folder_specs(rel.rpartition("/")[0], cache), rel, is_dir)
        specs = list(self._root_specs)
        for i in range(len(parts)):
            base = "/".join(parts[:i])
            spec = _load_spec(self.root / base / ".gitignore")
            if spec is not None:
                specs.append((base, spec))
        return self._matches(specs, rel, is_dir)

    def _folder_specs(self, folder: str, cache: dict[str, Specs]) -> Specs:
        """The specs that apply inside `folder` (its .gitignore and those above it),
        computed once per folder, iteratively: the first cached ancestor, then down."""
        chain: list[str] = []
        up = folder
        while up not in cache:
            chain.append(up)
            if not up:
                break
            up = up.rpartition("/")[0]
        specs = cache[up] if up in cache else list(self._root_specs)
        for base in reversed(chain):
            spec = _load_spec(self.root / base / ".gitignore")
            specs = cache[base] = [*specs, (base, spec)] if spec is not None else specs
        return cache[folder]

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
        """Workspace files in sorted pre-order, without recursion (a stack of folders)."""
        stack = [self._entries(self.root, "", self._root_specs)]
        while stack:
            try:
                entry, child, specs = next(stack[-1])
            except StopIteration:
                stack.pop()
                continue
            try:
                if entry.is_symlink():
                    continue
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if entry.name in ALWAYS_SKIPPED_DIRS or (specs and self._matches(specs, child, True)):
                    continue
                stack.append(self._entries(Path(entry.path), child, specs))
            else:
                if self.suffixes is not None and not entry.name.endswith(self.suffixes):
                    continue
                if specs and self._matches(specs, child, False):
                    continue
                yield child

    @staticmethod
    def _entries(
        folder: Path, rel: str, specs: list[tuple[str, pathspec.GitIgnoreSpec]]
    ) -> Iterator[tuple[os.DirEntry[str], str, list[tuple[str, pathspec.GitIgnoreSpec]]]]:
        """One folder's entries, sorted, with its path and the ignore specs that apply."""
        local = _load_spec(folder / ".gitignore")
        if local is not None:
            specs = [*specs, (rel, local)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            yield entry, f"{rel}/{entry.name}" if rel else entry.name, specs
