"""A proposal as data: the file changes it makes, how it shows them (a unified diff, an
LSP-shaped WorkspaceEdit, the hunks for per-hunk review) and what accepting all or some of
its hunks makes of each file.

Most proposals change one file; an undo (DESIGN §4) changes several, and may delete files
the run created (the edit empties them, then deletes them, so a diff view shows it). A
proposal accepted in part keeps the indexes of its accepted hunks; `targets()` and
`selected_edit()` follow them. One accepted with the user's own text (edit before accept,
DESIGN §9) keeps that text per file (`edited`); `targets()` is then what the user left,
and `edited_note()` tells the model how it differs from the proposal. `auto_approved`:
the rule that let it go ahead unasked. Must not know: LSP types, the store, the agent.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from agentls.tools.proposals.edit import unified_diff, workspace_edit
from agentls.tools.proposals.hunks import Hunk, apply_hunks, deletion_diff, file_hunks

# failed: accepted, but an OS failure (no space, read-only, immutable) kept it off the disk
Status = Literal["pending", "applied", "rejected", "stale", "failed"]
_LEFT_OUT_CHARS = 2000  # of left-out hunks' diffs told to the model


def content_hash(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str  # relative POSIX path
    uri: str
    old: bytes | None  # what the proposal was made from; None: no such file
    new: bytes | None  # None: delete the file
    version: int | None = None  # the open document's version it was based on

    @property
    def base_hash(self) -> str | None:
        return content_hash(self.old)


def _file_edit(change: FileChange) -> list[dict[str, Any]]:
    if change.new is not None:
        edit = workspace_edit(change.uri, change.version, change.old, change.new)
        return list(edit["documentChanges"])
    return [
        {"textDocument": {"uri": change.uri, "version": change.version}, "edits": []},
        {"kind": "delete", "uri": change.uri, "options": {"ignoreIfNotExists": True}},
    ]


def _diff(change: FileChange) -> str:
    if change.new is None:
        return deletion_diff(change.path, change.old or b"")
    return unified_diff(change.path, change.old, change.new)


@dataclass(slots=True)
class Proposal:
    id: str
    run_id: str | None
    title: str
    changes: list[FileChange]
    diff: str = ""
    edit: dict[str, Any] = field(default_factory=dict)
    hunks: list[Hunk] = field(default_factory=list)
    status: Status = "pending"
    comment: str | None = None  # the user's, with the decision
    note: str | None = None  # the store's, e.g. why it is stale or what was left out
    accepted_hunks: list[int] | None = None  # None: all of it (or not accepted)
    error: dict[str, Any] | None = None  # failed: {type: "runtime", message}
    created_at: float = field(default_factory=time.time)
    edited: dict[str, bytes] | None = None  # path → the text the user left (edit before accept)
    auto_approved: str | None = None  # the rule that let it go ahead without asking

    @classmethod
    def build(cls, id: str, run_id: str | None, title: str, changes: list[FileChange]) -> Proposal:
        """A proposal with its diff, edit and hunks computed from `changes`."""
        if not changes:
            raise ValueError("a proposal needs at least one file change")
        hunks: list[Hunk] = []
        for change in changes:
            hunks += file_hunks(change.path, change.uri, change.old, change.new, len(hunks))
        edit = {"documentChanges": [part for c in changes for part in _file_edit(c)]}
        for part in edit["documentChanges"]:  # a deletion empties the file first
            if part.get("edits") == []:
                part["edits"] = [e for h in hunks if h.uri == part["textDocument"]["uri"] for e in h.edits]
        diff = "".join(_diff(c) for c in changes)
        return cls(id, run_id, title, list(changes), diff, edit, hunks)

    # --- the first (usually only) file ---------------------------------------------------
    @property
    def path(self) -> str:
        return self.changes[0].path

    @property
    def uri(self) -> str:
        return self.changes[0].uri

    @property
    def new_content(self) -> bytes:
        return self.changes[0].new or b""

    @property
    def base_hash(self) -> str | None:
        return self.changes[0].base_hash

    @property
    def is_new_file(self) -> bool:
        return self.changes[0].old is None

    # --- partial acceptance --------------------------------------------------------------
    def check_hunks(self, indexes: list[int]) -> list[int]:
        """The sorted distinct indexes, or ValueError naming what is wrong."""
        known = {h.index for h in self.hunks}
        if not indexes:
            raise ValueError("hunks must name at least one hunk (reject to apply none)")
        unknown = sorted({i for i in indexes if i not in known})
        if unknown:
            raise ValueError(f"the proposal has no hunk {unknown} (it has 0 to {len(known) - 1})")
        return sorted(set(indexes))

    @property
    def partial(self) -> bool:
        return self.accepted_hunks is not None and len(self.accepted_hunks) < len(self.hunks)

    def targets(self) -> dict[str, bytes | None]:
        """Each file's content once the proposal (or its accepted hunks, or the user's
        edited text) is in place."""
        if self.edited is not None:
            return {c.path: self.edited.get(c.path, c.new) for c in self.changes}
        if not self.partial:
            return {c.path: c.new for c in self.changes}
        accepted = set(self.accepted_hunks or ())
        out: dict[str, bytes | None] = {}
        for change in self.changes:
            chosen = [h for h in self.hunks if h.path == change.path and h.index in accepted]
            out[change.path] = apply_hunks(change.old, chosen) if chosen else change.old
        return out

    def selected_edit(self) -> dict[str, Any]:
        """The WorkspaceEdit of what was accepted: the whole edit, or the accepted hunks'."""
        if not self.partial:
            return self.edit
        accepted = set(self.accepted_hunks or ())
        parts: list[dict[str, Any]] = []
        for change in self.changes:
            chosen = [h for h in self.hunks if h.path == change.path and h.index in accepted]
            if not chosen:
                continue
            if change.old is None:
                options = {"overwrite": False, "ignoreIfExists": False}
                parts.append({"kind": "create", "uri": change.uri, "options": options})
            edits = [e for h in chosen for e in h.edits]
            version = None if change.old is None else change.version
            parts.append({"textDocument": {"uri": change.uri, "version": version}, "edits": edits})
            if change.new is None:
                parts.append({"kind": "delete", "uri": change.uri, "options": {"ignoreIfNotExists": True}})
        return {"documentChanges": parts}

    # --- edit before accept ----------------------------------------------------------
    def check_content(self, content: dict[str, bytes]) -> dict[str, bytes]:
        """The user's text by path, or ValueError naming what is wrong (a path the
        proposal does not change, a file it deletes)."""
        if not content:
            raise ValueError("content must name at least one file of the proposal")
        changes = {c.path: c for c in self.changes}
        for path in content:
            change = changes.get(path)
            if change is None:
                raise ValueError(f"the proposal does not change {path}")
            if change.new is None:
                raise ValueError(f"the proposal deletes {path}: there is no text to edit")
        return dict(content)

    @property
    def edited_paths(self) -> list[str]:
        """The files whose applied text differs from the proposal's."""
        if self.edited is None:
            return []
        return [c.path for c in self.changes if c.path in self.edited and self.edited[c.path] != c.new]

    def edited_note(self) -> str:
        """For the model: how the text the user applied differs from the proposal, as a
        unified diff from the proposed text to the applied one (cut when long)."""
        parts = []
        for change in self.changes:
            if change.path not in self.edited_paths:
                continue
            applied = (self.edited or {})[change.path]
            parts.append(
                unified_diff(change.path, change.new or b"", applied, labels=("proposed", "applied"))
            )
        diffs = "".join(parts)
        if not diffs:
            return ""
        if len(diffs) > _LEFT_OUT_CHARS:
            diffs = diffs[:_LEFT_OUT_CHARS] + "\n[… cut]\n"
        return (
            "The user changed your proposal before applying it; from what you proposed to "
            f"what was applied:\n{diffs}"
        )

    def left_out(self) -> list[Hunk]:
        if not self.partial:
            return []
        accepted = set(self.accepted_hunks or ())
        return [h for h in self.hunks if h.index not in accepted]

    def left_out_note(self) -> str:
        """For the model: which hunks the user did not apply, with their diffs."""
        left = self.left_out()
        if not left:
            return ""
        kept = ", ".join(str(i) for i in self.accepted_hunks or ())
        where = "; ".join(f"hunk {h.index} of {h.path} ({h.header})" for h in left)
        diffs = "".join(h.diff for h in left)
        if len(diffs) > _LEFT_OUT_CHARS:
            diffs = diffs[:_LEFT_OUT_CHARS] + "\n[… cut]\n"
        return (
            f"The user applied only hunks {kept} of {len(self.hunks)} and left out {where}. "
            f"Not applied:\n{diffs}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The `agent/proposal` payload plus its state (camelCase, JSON-ready)."""
        return {
            "id": self.id,
            "runId": self.run_id,
            "uri": self.uri,
            "path": self.path,
            "title": self.title,
            "diff": self.diff,
            "edit": self.edit,
            "hunks": [h.to_dict() for h in self.hunks],
            "status": self.status,
            "comment": self.comment,
            "note": self.note,
            "acceptedHunks": self.accepted_hunks,
            "error": self.error,
            "createdAt": self.created_at,
            "edited": self.edited_paths,
            "autoApproved": self.auto_approved,
        }
