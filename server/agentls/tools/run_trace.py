"""The trace of one run: `<root>/.agentls/runs/<runId>.json` (DESIGN §4).

It holds the run's events (the model's text and tool calls among them), its tool calls
with their durations, and its proposals with the document versions they were based on,
the decisions on them (`autoApproved`: the rule that let one go ahead unasked; `edited`:
the files where the user applied their own version) and, for each applied one, every
file's content before and after — the text actually applied, the user's where they
edited it — (what `undo` needs, so it works after a restart and from the CLI). Tool arguments and
outputs are redacted like the audit log and long strings are cut; file contents are
kept whole (UTF-8 text, or base64 for other bytes). The file is rewritten atomically
(fsync'd, its temporary file under `.agentls/tmp/`) when the run starts, when one of its
proposals is resolved and when it ends; a proposal still pending at the end (approval
`never`) is followed until it is decided.

It is also the journal of the run's writes: the store's write-ahead hook records an
accepted proposal as `status: "applying"` with every file's content before and after
(`applying`) and saves before anything is written; the resolution replaces it with the
outcome. A trace left with `"applying"` (the process died in between) says which write
may have landed; `undo` takes back the files that hold its `after`.
Thread-safe; a failing write is logged, never raised (but the journal's, which keeps
the write from happening). Must not know: the agent, LSP.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentls.tools.audit import env_secrets, redact
from agentls.tools.proposals import Proposal, ProposalStore
from agentls.workspace.durable import state_folder, tmp_folder

log = logging.getLogger(__name__)

RUNS_DIR = Path(".agentls") / "runs"
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
TRACE_VERSION = 1
_REDACTED_FIELDS = ("arguments", "input", "output", "error", "text", "message", "summary")


def new_run_id(kind: str = "run") -> str:
    """A new id for a run (`run-…`) or a one-off tool call (`tool-…`): the one place ids
    are made, so every one is a valid `trace_path` name."""
    return f"{kind}-{uuid.uuid4().hex[:12]}"


def trace_path(root: str | os.PathLike[str], run_id: str) -> Path:
    """Where a run's trace lives; ValueError for a run id that is not one (no `/`, `..`)."""
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id) or ".." in run_id:
        raise ValueError(f"{run_id!r} is not a run id")
    return Path(root) / RUNS_DIR / f"{run_id}.json"


def encode(data: bytes | None) -> dict[str, str] | None:
    if data is None:
        return None
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def decode(value: Any) -> bytes | None:
    """The bytes `encode` stored; ValueError for anything else."""
    if value is None:
        return None
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return str(value["text"]).encode("utf-8")
    if isinstance(value, dict) and isinstance(value.get("base64"), str):
        return base64.b64decode(str(value["base64"]), validate=True)
    raise ValueError(f"not a stored file content: {str(value)[:80]!r}")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class RunTrace:
    def __init__(
        self,
        root: str | os.PathLike[str],
        run_id: str,
        goal: str,
        store: ProposalStore,
        **facts: Any,
    ) -> None:
        self.path = trace_path(root, run_id)
        self.root = Path(root)
        self.run_id = run_id
        self.store = store
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self._secrets = env_secrets()
        self._ended = False
        self._proposals: dict[str, dict[str, Any]] = {}
        self._calls: dict[str, dict[str, Any]] = {}
        self.data: dict[str, Any] = {
            "version": TRACE_VERSION,
            "runId": run_id,
            "goal": goal,
            **facts,
            "status": "running",
            "startedAt": _now(),
            "endedAt": None,
            "events": [],
            "toolCalls": [],
            "proposals": [],
        }
        store.add_listener(self._on_store_event)
        store.add_write_ahead(self._before_write)
        self.save()

    # --- what is recorded --------------------------------------------------------------
    def event(self, event: dict[str, Any]) -> None:
        """A run event (`RunEvent.to_dict()`); proposals are recorded from the store."""
        kind = event.get("kind")
        entry = {k: v for k, v in event.items() if k != "runId"}
        for name in _REDACTED_FIELDS:
            if name in entry:
                entry[name] = redact(entry[name], self._secrets)
        if kind == "proposal":  # the proposal itself is in "proposals"
            proposal = event.get("proposal") or {}
            entry = {"kind": kind, "action": event.get("action"), "id": proposal.get("id"),
                     "status": proposal.get("status")}  # fmt: skip
        entry["t"] = round(time.monotonic() - self._start, 3)
        with self._lock:
            self.data["events"].append(entry)
            if kind == "tool_call":
                call = {"id": entry.get("id"), "name": entry.get("name"),
                        "arguments": entry.get("arguments"), "t": entry["t"]}  # fmt: skip
                self._calls[str(entry.get("id"))] = call
                self.data["toolCalls"].append(call)
            elif kind == "tool_result" and str(entry.get("id")) in self._calls:
                self._calls[str(entry.get("id"))].update(
                    ok=entry.get("ok"), durationMs=entry.get("durationMs"), error=entry.get("error")
                )
        if kind == "finished":
            self.finish(str(event.get("status", "")), summary=entry.get("summary"))

    def _on_store_event(self, event: dict[str, Any]) -> None:
        """A ProposalStore listener (any thread): this run's proposals, created or decided."""
        info = event.get("proposal") or {}
        if info.get("runId") != self.run_id:
            return
        proposal = self.store.get(str(info.get("id")))
        if proposal is None:
            return
        with self._lock:
            record = self._proposals.get(proposal.id)
            if record is None:
                record = self._proposals[proposal.id] = self._created(proposal)
                self.data["proposals"].append(record)
            if event.get("action") == "resolved":
                self._resolved(record, proposal)
        if event.get("action") == "resolved":
            self.save()
            self._maybe_detach()

    def _before_write(
        self, proposal: Proposal, before: dict[str, bytes | None], after: dict[str, bytes | None]
    ) -> None:
        """The store's write-ahead hook: the write this run is about to make, saved first
        (an OSError keeps the write from happening)."""
        if proposal.run_id != self.run_id:
            return
        with self._lock:
            record = self._proposals.get(proposal.id)
            if record is None:
                record = self._proposals[proposal.id] = self._created(proposal)
                self.data["proposals"].append(record)
            record.update(status="applying", acceptedHunks=proposal.accepted_hunks)
            record["applying"] = [
                {"path": path, "before": encode(before.get(path)), "after": encode(data)}
                for path, data in after.items()
                if data != before.get(path)
            ]
        self.save(strict=True)

    @staticmethod
    def _created(proposal: Proposal) -> dict[str, Any]:
        return {
            "id": proposal.id,
            "title": proposal.title,
            "createdAt": datetime.fromtimestamp(proposal.created_at, UTC).isoformat(),
            "files": [
                {"path": c.path, "version": c.version, "baseHash": c.base_hash,
                 "deletes": c.new is None}  # fmt: skip
                for c in proposal.changes
            ],
            "hunks": len(proposal.hunks),
            "status": "pending",
        }

    @staticmethod
    def _resolved(record: dict[str, Any], proposal: Proposal) -> None:
        record.update(
            status=proposal.status,
            decision="rejected" if proposal.status == "rejected" else "accepted",
            acceptedHunks=proposal.accepted_hunks,
            comment=proposal.comment,
            note=proposal.note,
            resolvedAt=_now(),
        )
        if proposal.auto_approved is not None:
            record["autoApproved"] = proposal.auto_approved
        if proposal.edited_paths:  # "after" below is the user's version of these
            record["edited"] = proposal.edited_paths
        record.pop("applying", None)
        if proposal.error is not None:
            record["error"] = proposal.error
        if proposal.status == "applied":
            targets = proposal.targets()
            record["applied"] = [
                {"path": c.path, "before": encode(c.old), "after": encode(targets[c.path])}
                for c in proposal.changes
                if targets[c.path] != c.old
            ]

    def finish(self, status: str, **facts: Any) -> None:
        """The run ended: its status, saved; pending proposals are still followed."""
        with self._lock:
            self._ended = True
            self.data.update(status=status, endedAt=_now(), **facts)
        self.save()
        self._maybe_detach()

    def _maybe_detach(self) -> None:
        with self._lock:
            done = self._ended and all(p["status"] != "pending" for p in self._proposals.values())
        if done:
            self.store.remove_listener(self._on_store_event)
            self.store.remove_write_ahead(self._before_write)

    def close(self) -> None:
        """Stop following the store (e.g. the process is exiting) and save."""
        self.store.remove_listener(self._on_store_event)
        self.store.remove_write_ahead(self._before_write)
        self.save()

    def save(self, *, strict: bool = False) -> None:
        """Write the trace (fsync'd, then renamed into place); a failure is logged, or
        raised with `strict` (the journal of a write)."""
        try:
            with self._lock:
                text = json.dumps(self.data, ensure_ascii=False, indent=1)
            state_folder(self.path.parent)
            tmp = tmp_folder(self.root) / f"{os.getpid()}-{uuid.uuid4().hex[:12]}.trace"
            try:
                with open(tmp, "w", encoding="utf-8") as fh:
                    fh.write(text)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        except Exception as exc:
            if strict:
                raise
            log.warning("could not write the trace of run %s to %s: %s", self.run_id, self.path, exc)
