"""A full-text index of the workspace's documentation, one row per heading section.

Documents are Markdown (`*.md`, `*.markdown`), reStructuredText (`*.rst`) and plain text
under a docs folder, found by a gitignore-aware walk and read as the server sees them
(open buffers before disk). The index is an in-memory SQLite FTS5 table built on first
use and rebuilt when any document is added, removed, changed on disk or edited in a
buffer. Ranking is bm25 with heading matches weighted above body text. Each section is
also tagged as spec-like and/or design-like from its path and headings.
Must not know: tools, the agent, LSP.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import weakref
from dataclasses import dataclass
from typing import Literal

from agentls.tools.knowledge.fts_query import match_expression
from agentls.tools.knowledge.sections import document_kind, split_sections
from agentls.workspace import FileWalker, Workspace

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".txt")
TEXT_DIRS = frozenset({"docs", "doc", "spec", "specs"})  # *.txt only counts under these
MAX_DOC_BYTES = 1024 * 1024
HEADING_WEIGHT, BODY_WEIGHT, PATH_WEIGHT = 4.0, 1.0, 1.5

SPEC_WORDS = re.compile(
    r"\b(?:specs?|specifications?|requirements?|apis?|protocols?|contracts?|rfcs?\d*)\b"
)
DESIGN_WORDS = re.compile(r"\b(?:designs?|architectures?|architectural|adrs?|decisions)\b")

Scope = Literal["spec", "design"]


def _words(text: str) -> str:
    """Lower-case words of a path or heading: camelCase and punctuation split apart."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return re.sub(r"[^0-9a-z]+", " ", spaced.lower())


def looks_like_spec(text: str) -> bool:
    return bool(SPEC_WORDS.search(_words(text)))


def looks_like_design(text: str) -> bool:
    return bool(DESIGN_WORDS.search(_words(text)))


def is_document(rel: str) -> bool:
    lower = rel.lower()
    if lower.endswith(".txt"):
        return any(part in TEXT_DIRS for part in lower.split("/")[:-1])
    return lower.endswith(DOC_SUFFIXES)


@dataclass(frozen=True, slots=True)
class DocHit:
    path: str
    heading: str
    start_line: int
    end_line: int
    text: str
    score: float


class DocsIndex:
    """The documentation sections of one workspace, searchable by words. Thread-safe."""

    def __init__(self, workspace: Workspace, *, weak: bool = False) -> None:
        # A cache keyed by the workspace holds its index with weak=True so that the
        # index does not keep the workspace (its key) alive.
        self._workspace = weakref.ref(workspace)
        self._strong = None if weak else workspace
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._fingerprint: tuple[tuple[str, int, int], ...] | None = None
        self.builds = 0  # how many times the index was (re)built

    @property
    def workspace(self) -> Workspace:
        workspace = self._workspace()
        if workspace is None:
            raise RuntimeError("the workspace of this docs index is gone")
        return workspace

    # --- building --------------------------------------------------------------------
    def _documents(self) -> list[str]:
        walker = FileWalker(self.workspace.root, suffixes=DOC_SUFFIXES)
        found = {rel for rel in walker.walk() if is_document(rel)}
        for rel in self.workspace.open_paths():
            if is_document(rel) and not walker.is_ignored(rel):
                found.add(rel)
        return sorted(found)

    def _fingerprint_of(self, paths: list[str]) -> tuple[tuple[str, int, int], ...]:
        marks: list[tuple[str, int, int]] = []
        for rel in paths:
            doc = self.workspace.document(rel)
            if doc is not None:
                marks.append((rel, -1 - doc.version, len(doc.data)))
                continue
            try:
                st = os.stat(self.workspace.root / rel)
            except OSError:
                continue
            marks.append((rel, st.st_mtime_ns, st.st_size))
        return tuple(marks)

    def _build(self, paths: list[str]) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        conn.execute(
            "CREATE VIRTUAL TABLE sections USING fts5(heading, body, path,"
            " start_line UNINDEXED, end_line UNINDEXED, spec UNINDEXED, design UNINDEXED,"
            " tokenize='unicode61 remove_diacritics 2')"
        )
        rows = []
        for rel in paths:
            data = self.workspace.read_bytes(rel)
            if data is None or len(data) > MAX_DOC_BYTES or b"\x00" in data:
                continue
            text = data.decode("utf-8", "replace")
            spec_path, design_path = looks_like_spec(rel), looks_like_design(rel)
            for section in split_sections(text, document_kind(rel)):
                heading = section.heading
                rows.append(
                    (
                        heading,
                        section.text,
                        rel,
                        section.start_line,
                        section.end_line,
                        int(spec_path or looks_like_spec(heading)),
                        int(design_path or looks_like_design(heading)),
                    )
                )
        conn.executemany("INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        conn.commit()
        return conn

    def refresh(self) -> bool:
        """Rebuild when the documents changed since the last build; True if it rebuilt."""
        with self._lock:
            return self._refresh_locked()

    def _refresh_locked(self) -> bool:
        paths = self._documents()
        fingerprint = self._fingerprint_of(paths)
        if self._conn is not None and fingerprint == self._fingerprint:
            return False
        conn = self._build(paths)
        if self._conn is not None:
            self._conn.close()
        self._conn, self._fingerprint = conn, fingerprint
        self.builds += 1
        return True

    # --- searching -------------------------------------------------------------------
    def search(
        self, query: str, limit: int = 5, prefer: Scope | None = None
    ) -> tuple[list[DocHit], str]:
        """Best sections for `query` and the scope they came from ("spec", "design" or "all").

        With `prefer`, only sections of that kind are searched first; when none match,
        every document is searched.
        """
        expression = match_expression(query)
        if expression is None or limit <= 0:
            return [], prefer or "all"
        with self._lock:
            self._refresh_locked()
            if prefer is not None:
                hits = self._query(expression, limit, prefer)
                if hits:
                    return hits, prefer
            return self._query(expression, limit, None), "all"

    def _query(self, expression: str, limit: int, scope: Scope | None) -> list[DocHit]:
        assert self._conn is not None
        if scope not in (None, "spec", "design"):
            raise ValueError(f"unknown scope {scope!r}")
        where = f" AND {scope} = 1" if scope is not None else ""
        rows = self._conn.execute(
            "SELECT path, heading, start_line, end_line, body,"
            f" bm25(sections, {HEADING_WEIGHT}, {BODY_WEIGHT}, {PATH_WEIGHT}) AS rank"
            f" FROM sections WHERE sections MATCH ?{where} ORDER BY rank, path, start_line LIMIT ?",
            (expression, limit),
        ).fetchall()
        return [DocHit(r[0], r[1], int(r[2]), int(r[3]), r[4], round(-r[5], 6)) for r in rows]

    def section_count(self) -> int:
        with self._lock:
            self._refresh_locked()
            assert self._conn is not None
            return int(self._conn.execute("SELECT count(*) FROM sections").fetchone()[0])
