"""Sessions (DESIGN §9): the runs of one conversation, in order, kept on disk.

A session lives in `.agentls/sessions/<sessionId>.json`: `{sessionId, title, created,
updated, runs: [{runId, goal, status, summary, verified, proposals: [{id, title, status,
comment, files}], at}]}`, written atomically after each run, so it survives a restart. A run
started in a session sees the earlier runs (`Session.earlier`: their goals, outcomes,
summaries and the decisions on their proposals) as the first part of its context.
Ids are `ses-` and 16 hex digits; a malformed or unknown id is a `SessionError` (a front end
answers it as bad params), never a path outside the folder.
Must not know: any front end, the loop.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentls.workspace.durable import state_folder

log = logging.getLogger(__name__)

FOLDER = Path(".agentls") / "sessions"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
TITLE_CHARS = 80
#: How many of the earlier runs a new run is given at most (the newest; how many of them
#: it shows is the context budget's: builtin/conversation.py).
EARLIER_RUNS = 50
EARLIER_SUMMARY_CHARS = 1200


class SessionError(ValueError):
    """An unknown or malformed session id, or a session file that cannot be read."""


@dataclass
class Session:
    session_id: str
    path: Path
    title: str = ""
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    runs: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "title": self.title,
            "created": self.created,
            "updated": self.updated,
            "runs": list(self.runs),
        }

    def listing(self) -> dict[str, Any]:
        """`agent/sessions`' row: `{sessionId, title, runs, updated}`."""
        return {"sessionId": self.session_id, "title": self.title, "runs": len(self.runs),
                "updated": self.updated}  # fmt: skip

    def earlier(self) -> tuple[dict[str, Any], ...]:
        """The earlier runs a new run of the session is told about (the newest few)."""
        with self._lock:
            return tuple(self.runs[-EARLIER_RUNS:])

    def record(self, result: dict[str, Any], proposals: list[dict[str, Any]]) -> None:
        """Add a finished run (`RunState.to_dict()` and its proposals) and save."""
        summary = str(result.get("summary") or result.get("error") or "")
        entry = {
            "runId": result.get("runId"),
            "goal": result.get("goal", ""),
            "status": result.get("status"),
            "summary": summary[:EARLIER_SUMMARY_CHARS],
            "verified": (result.get("verification") or {}).get("verified"),
            "proposals": [
                {k: p.get(k) for k in ("id", "title", "status", "comment", "files")}
                for p in proposals
            ],
            "at": time.time(),
        }
        with self._lock:
            self.runs.append(entry)
            self.updated = entry["at"]
            if not self.title:
                self.title = _title(entry["goal"])
            data = self.to_dict()
        _write_json(self.path, data)


class SessionStore:
    """The sessions of one workspace."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.folder = Path(root) / FOLDER
        self._open: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, title: str = "") -> Session:
        session_id = f"ses-{uuid.uuid4().hex[:16]}"
        session = Session(session_id, self.folder / f"{session_id}.json", title=_title(title))
        with self._lock:
            self._open[session_id] = session
        try:
            _write_json(session.path, session.to_dict())
        except OSError as exc:  # a full disk, a read-only workspace: the run stands, unkept
            log.warning(
                "session %s could not be written (%s); it is kept after its runs if it can be",
                session_id,
                exc,
            )
        return session

    def load(self, session_id: Any) -> Session:
        """The session with that id (read once, then kept); SessionError if there is none."""
        if not isinstance(session_id, str) or not _ID.match(session_id):
            raise SessionError(f"malformed session id {session_id!r}")
        with self._lock:
            found = self._open.get(session_id)
        if found is not None:
            return found
        path = self.folder / f"{session_id}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SessionError(f"no session {session_id!r} in this workspace") from None
        except (OSError, ValueError) as exc:
            raise SessionError(f"session {session_id!r} cannot be read: {exc}") from None
        runs = data.get("runs") if isinstance(data, dict) else None
        if not isinstance(runs, list):
            raise SessionError(f"session {session_id!r} cannot be read: no runs list")
        session = Session(
            session_id,
            path,
            title=str(data.get("title") or ""),
            created=float(data.get("created") or 0.0),
            updated=float(data.get("updated") or 0.0),
            runs=[r for r in runs if isinstance(r, dict)],
        )
        with self._lock:
            return self._open.setdefault(session_id, session)

    def list(self) -> list[Session]:
        """Every readable session, the most recently updated first."""
        found: list[Session] = []
        for path in self.folder.glob("*.json") if self.folder.is_dir() else ():
            try:
                found.append(self.load(path.stem))
            except SessionError:
                continue
        return sorted(found, key=lambda s: s.updated, reverse=True)


def _title(goal: str) -> str:
    line = " ".join(str(goal).split())
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1] + "…"


def _write_json(path: Path, data: dict[str, Any]) -> None:
    state_folder(path.parent)  # a .agentls it makes ignores itself (its own .gitignore)
    fd, tmp = tempfile.mkstemp(prefix=".session-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
