"""The workspace layer: files as the server sees them (disk plus open buffers),
paths confined to the root, ignore rules.

Architecture Invariant: this layer knows nothing about parsing, tools, the agent or LSP.
"""

from agentls.workspace.documents import Document, TextChange, Workspace
from agentls.workspace.paths import PathOutsideWorkspace, confine, to_relative
from agentls.workspace.positions import LineIndex
from agentls.workspace.walk import FileWalker

__all__ = [
    "Document",
    "FileWalker",
    "LineIndex",
    "PathOutsideWorkspace",
    "TextChange",
    "Workspace",
    "confine",
    "to_relative",
]
