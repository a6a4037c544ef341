"""The workspace as the server sees it: files on disk plus open, unsaved editor buffers.

Open documents shadow the disk. Incremental changes are applied here (LSP semantics:
UTF-16 ranges) and reported back as byte-level edits so the analysis layer can re-parse
incrementally. Must not know: parsing, LSP types, tools.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from agentls.workspace.paths import confine, to_relative
from agentls.workspace.positions import LineIndex

MAX_FILE_BYTES = 4 * 1024 * 1024  # larger files are not analysed


@dataclass(frozen=True, slots=True)
class TextChange:
    """One LSP content change: a (start, end) range of (line, UTF-16 char), or a full text."""

    text: str
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ByteEdit:
    """A change expressed the way tree-sitter's `Tree.edit` wants it."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: tuple[int, int]
    old_end_point: tuple[int, int]
    new_end_point: tuple[int, int]


@dataclass(slots=True)
class Document:
    path: str  # relative POSIX path
    data: bytes
    version: int
    language_id: str | None = None

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


def _end_point(start: tuple[int, int], inserted: bytes) -> tuple[int, int]:
    newlines = inserted.count(b"\n")
    if newlines == 0:
        return start[0], start[1] + len(inserted)
    return start[0] + newlines, len(inserted) - inserted.rfind(b"\n") - 1


class Workspace:
    """Root folder, open buffers, and reads that see buffers before disk. Thread-safe."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(os.path.realpath(root))
        self._docs: dict[str, Document] = {}
        self._lock = threading.RLock()

    # --- paths -------------------------------------------------------------------
    def resolve(self, path: str | os.PathLike[str], *, allow_absolute: bool = False) -> Path:
        return confine(self.root, path, allow_absolute=allow_absolute)

    def relative(self, path: str | os.PathLike[str]) -> str:
        return to_relative(self.root, path)

    # --- buffers -------------------------------------------------------------------
    def open(self, path: str, text: str, version: int = 0, language_id: str | None = None) -> Document:
        rel = self.relative(path)
        doc = Document(rel, text.encode("utf-8"), version, language_id)
        with self._lock:
            self._docs[rel] = doc
        return doc

    def close(self, path: str) -> None:
        with self._lock:
            self._docs.pop(self.relative(path), None)

    def document(self, path: str) -> Document | None:
        with self._lock:
            return self._docs.get(self.relative(path))

    def open_paths(self) -> list[str]:
        with self._lock:
            return list(self._docs)

    def change(self, path: str, changes: list[TextChange], version: int) -> tuple[Document, list[ByteEdit]]:
        """Apply LSP content changes in order; return the new document and the byte edits.

        A change whose range is out of bounds is clamped to the document (as editors expect);
        a full-text change yields no byte edits (the caller re-parses from scratch).
        """
        rel = self.relative(path)
        with self._lock:
            doc = self._docs.get(rel)
            if doc is None:
                doc = Document(rel, self.read_bytes(rel) or b"", version)
            data = doc.data
            edits: list[ByteEdit] = []
            full = False
            for change in changes:
                new = change.text.encode("utf-8")
                if change.start is None or change.end is None:
                    data, full = new, True
                    continue
                lines = LineIndex(data)
                a = lines.offset(*change.start)
                b = lines.offset(*change.end)
                a = len(data) if a is None else a
                b = len(data) if b is None else b
                if b < a:
                    a, b = b, a
                start_point, old_end_point = lines.point(a), lines.point(b)
                data = data[:a] + new + data[b:]
                edits.append(
                    ByteEdit(a, b, a + len(new), start_point, old_end_point, _end_point(start_point, new))
                )
            doc = Document(rel, data, version, doc.language_id)
            self._docs[rel] = doc
            return doc, ([] if full else edits)

    # --- reads ---------------------------------------------------------------------
    def read_bytes(self, path: str) -> bytes | None:
        """Contents as the server sees them: the open buffer, else the disk; None if absent."""
        rel = self.relative(path)
        with self._lock:
            doc = self._docs.get(rel)
        if doc is not None:
            return doc.data
        try:
            with open(self.root / rel, "rb") as fh:
                return fh.read(MAX_FILE_BYTES + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            return None

    def read_text(self, path: str) -> str | None:
        data = self.read_bytes(path)
        return None if data is None else data.decode("utf-8", "replace")
