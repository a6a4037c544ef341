"""What the agent sees of a file: its own pending proposal, else the editor's text (a front
end that can ask the editor for it: `ToolContext.editor`), else the open buffer, else the disk.

Shared by the filesystem tools so that reads and edits agree on the current content.
Must not know: any particular tool's input or output, LSP.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from agentls.tools.base import ToolContext, ToolError

BINARY_SNIFF_BYTES = 8192
#: Files larger than this are read only up to it (and reported as truncated).
MAX_READ_BYTES = 16 * 1024 * 1024

Source = Literal["proposal", "buffer", "disk"]


@dataclass(slots=True)
class FileContent:
    path: str  # relative POSIX path
    data: bytes
    source: Source
    size: int  # the full size (may exceed len(data) for huge files on disk)


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:BINARY_SNIFF_BYTES]


def target(ctx: ToolContext, path: str) -> tuple[Path, str]:
    """The confined real path and its relative POSIX form (PathOutsideWorkspace if outside)."""
    real = ctx.workspace.resolve(path)
    return real, ctx.workspace.relative(real)


def current_content(ctx: ToolContext, rel: str, real: Path, tool: str) -> FileContent | None:
    """The content the agent sees, or None when the file does not exist (for the agent)."""
    if ctx.proposals is not None:
        pending = ctx.proposals.overlay(ctx.run_id, rel)
        if pending is not None:
            return FileContent(rel, pending, "proposal", len(pending))
    if ctx.editor is not None:
        edited = ctx.editor.read(rel)
        if edited is not None:
            return FileContent(rel, edited, "buffer", len(edited))
    doc = ctx.workspace.document(rel)
    if doc is not None:
        return FileContent(rel, doc.data, "buffer", len(doc.data))
    if real.is_dir():
        raise ToolError("runtime", f"{rel} is a directory, not a file", tool, path=rel)
    try:
        size = os.stat(real).st_size
        with open(real, "rb") as fh:
            data = fh.read(MAX_READ_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise ToolError(
            "runtime", f"cannot read {rel}: {exc.strerror or exc}", tool, path=rel
        ) from None
    return FileContent(rel, data, "disk", size)


def require_text(content: FileContent, tool: str) -> None:
    if is_binary(content.data):
        raise ToolError(
            "runtime",
            f"{content.path} is a binary file ({content.size} bytes); it cannot be read or edited as text",
            tool,
            path=content.path,
            size=content.size,
        )
