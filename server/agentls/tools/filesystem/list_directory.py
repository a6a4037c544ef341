"""The `list_directory` tool: the entries of a folder, honouring .gitignore.

Symlinks are listed as such and never followed. Must not know: the agent, LSP, other tools.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.filesystem.content import target
from agentls.tools.permissions import READ, Permission
from agentls.workspace import FileWalker

MAX_ENTRIES = 2000
#: Entries looked at (listed or ignored) before giving up, so huge ignored trees stay cheap.
MAX_SCANNED = 50_000


class ListDirectoryInput(ToolInput):
    path: str = Field(default=".", description="Folder relative to the workspace root.")
    recursive: bool = Field(default=False, description="Also list the contents of sub-folders.")


EntryType = Literal["file", "dir", "symlink"]


class Entry(ToolOutput):
    path: str = Field(description="Relative to the workspace root.")
    type: EntryType
    size: int | None = Field(default=None, description="Bytes, for files.")


class ListDirectoryOutput(ToolOutput):
    path: str
    entries: list[Entry]
    truncated: bool = Field(description=f"True when there were more than {MAX_ENTRIES} entries.")


class ListDirectory(Tool):
    """List a folder of the workspace (files, sub-folders and symlinks, with file sizes).

    Entries ignored by .gitignore (and folders like .git or node_modules) are left out,
    unless the folder asked for is itself ignored. With recursive=true sub-folders are
    listed too, depth first. At most 2000 entries are returned (truncated=true beyond).
    """

    name = "list_directory"
    category = "filesystem"
    permissions: ClassVar[frozenset[Permission]] = frozenset({READ})
    Input = ListDirectoryInput
    Output = ListDirectoryOutput
    timeout_s = 30.0

    def execute(self, input: ListDirectoryInput, ctx: ToolContext) -> ListDirectoryOutput:
        real, rel = target(ctx, input.path)
        if not real.is_dir():
            what = "a file" if real.exists() else "not found"
            raise ToolError("runtime", f"{rel} is {what}, not a directory", self.name, path=rel)
        walker = FileWalker(ctx.workspace.root)
        filtered = rel == "." or not walker.is_ignored(rel, is_dir=True)
        lister = _Lister(walker, filtered, ctx)
        lister.scan(real, "" if rel == "." else rel, input.recursive)
        return ListDirectoryOutput(path=rel, entries=lister.entries, truncated=lister.truncated)


def _sorted_entries(folder: Path, rel: str) -> Iterator[tuple[os.DirEntry[str], str]]:
    try:
        items = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for item in items:
        yield item, f"{rel}/{item.name}" if rel else item.name


class _Lister:
    def __init__(self, walker: FileWalker, filtered: bool, ctx: ToolContext) -> None:
        self.walker = walker
        self.filtered = filtered
        self.ctx = ctx
        self.entries: list[Entry] = []
        self.truncated = False
        self.scanned = 0
        self.gitignores: dict[str, Any] = {}  # the ignore specs per folder, read once

    def scan(self, folder: Path, rel: str, recursive: bool) -> None:
        """Entries in sorted pre-order, without recursion (a stack of folders)."""
        stack = [_sorted_entries(folder, rel)]
        while stack:
            try:
                item, child = next(stack[-1])
            except StopIteration:
                stack.pop()
                continue
            if self.truncated or self.ctx.cancel.is_set():
                self.truncated = True
                return
            self.scanned += 1
            if self.scanned > MAX_SCANNED:
                self.truncated = True
                return
            try:
                kind: EntryType = (
                    "symlink" if item.is_symlink() else ("dir" if item.is_dir() else "file")
                )
                size = item.stat(follow_symlinks=False).st_size if kind == "file" else None
            except OSError:
                continue
            if self.filtered and self.walker.is_ignored(child, kind == "dir", self.gitignores):
                continue
            if len(self.entries) >= MAX_ENTRIES:
                self.truncated = True
                return
            self.entries.append(Entry(path=child, type=kind, size=size))
            if recursive and kind == "dir":
                stack.append(_sorted_entries(Path(item.path), child))
