"""Long-term memory: a persistent SQLite store with FTS5 full-text search in the workspace.

The database lives at `<root>/.agentls/memory.db` and is created on the first write; a
search before that returns nothing and creates nothing. Memories are ranked with bm25
(text weighted above tags). One connection guarded by a lock serves every thread; WAL
mode lets a CLI run and the language server share the file.
Must not know: tools, the agent, LSP, how memories are chosen.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict

from agentls.tools.knowledge.fts_query import match_expression
from agentls.workspace.durable import state_folder

DB_DIR = ".agentls"
DB_NAME = "memory.db"
TEXT_WEIGHT, TAGS_WEIGHT = 1.0, 0.5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    run_id TEXT,
    source TEXT NOT NULL DEFAULT 'agent'
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    text, tags, content='memories', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, tags)
    VALUES ('delete', old.id, old.text, old.tags);
END;
CREATE TRIGGER IF NOT EXISTS memories_au AFTER UPDATE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, tags)
    VALUES ('delete', old.id, old.text, old.tags);
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags);
END;
"""


class MemoryHit(TypedDict):
    id: int
    text: str
    tags: list[str]
    score: float
    created_at: str


def _utf8(text: str) -> str:
    """`text` with lone surrogates (valid in Python, not in UTF-8) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _tags(raw: str) -> list[str]:
    try:
        value = json.loads(raw)
    except ValueError:
        return []
    return [str(t) for t in value] if isinstance(value, list) else []


class MemoryStore:
    """Memories of one workspace. `path` is the database file, or a workspace root folder."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        p = Path(path)
        self.path = p / DB_DIR / DB_NAME if p.is_dir() else p
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    @classmethod
    def for_workspace(cls, root: str | os.PathLike[str]) -> MemoryStore:
        return cls(Path(root) / DB_DIR / DB_NAME)

    # --- connection ------------------------------------------------------------------
    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """The open connection; None when the database does not exist and `create` is false."""
        if self._conn is not None:
            return self._conn
        if not create and not self.path.is_file():
            return None
        self._make_folder()
        conn = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
        except sqlite3.Error:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _make_folder(self) -> None:
        """Create the database folder; a `.agentls` folder ignores itself in git."""
        state_folder(self.path.parent)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writes ----------------------------------------------------------------------
    def add(
        self,
        text: str,
        tags: list[str] | tuple[str, ...] | None = None,
        run_id: str | None = None,
        source: str = "agent",
    ) -> int:
        """Store one memory and return its id."""
        clean_tags = [_utf8(t.strip()) for t in (tags or ()) if t.strip()]
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._lock:
            conn = self._connect(create=True)
            assert conn is not None
            with conn:
                cur = conn.execute(
                    "INSERT INTO memories(text, tags, created_at, run_id, source) VALUES (?, ?, ?, ?, ?)",
                    (
                        _utf8(text),
                        json.dumps(clean_tags, ensure_ascii=False),
                        created,
                        run_id,
                        source,
                    ),
                )
            return int(cur.lastrowid or 0)

    def delete(self, memory_id: int) -> bool:
        with self._lock:
            conn = self._connect(create=False)
            if conn is None:
                return False
            with conn:
                cur = conn.execute("DELETE FROM memories WHERE id = ?", (memory_id,))
            return cur.rowcount > 0

    # --- reads -----------------------------------------------------------------------
    def search(self, query: str, limit: int = 5) -> list[MemoryHit]:
        """Memories matching `query`, most relevant first (score: higher is better)."""
        expression = match_expression(query)
        if expression is None or limit <= 0:
            return []
        with self._lock:
            conn = self._connect(create=False)
            if conn is None:
                return []
            rows = conn.execute(
                "SELECT m.id, m.text, m.tags, m.created_at,"
                f" bm25(memories_fts, {TEXT_WEIGHT}, {TAGS_WEIGHT}) AS rank"
                " FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid"
                " WHERE memories_fts MATCH ? ORDER BY rank, m.id DESC LIMIT ?",
                (expression, limit),
            ).fetchall()
        return [
            MemoryHit(id=r[0], text=r[1], tags=_tags(r[2]), score=round(-r[4], 6), created_at=r[3])
            for r in rows
        ]

    def get(self, memory_id: int) -> dict[str, Any] | None:
        with self._lock:
            conn = self._connect(create=False)
            if conn is None:
                return None
            row = conn.execute(
                "SELECT id, text, tags, created_at, run_id, source FROM memories WHERE id = ?",
                (memory_id,),
            ).fetchone()
        if row is None:
            return None
        keys = ("id", "text", "tags", "created_at", "run_id", "source")
        out = dict(zip(keys, row, strict=True))
        out["tags"] = _tags(row[2])
        return out

    def recent(self, limit: int = 10) -> list[dict[str, Any]]:
        """The newest memories first (for showing what the agent remembers)."""
        with self._lock:
            conn = self._connect(create=False)
            if conn is None:
                return []
            ids = [
                r[0]
                for r in conn.execute("SELECT id FROM memories ORDER BY id DESC LIMIT ?", (limit,))
            ]
        return [m for m in (self.get(i) for i in ids) if m is not None]

    def count(self) -> int:
        with self._lock:
            conn = self._connect(create=False)
            if conn is None:
                return 0
            return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
