"""Undo of a run (DESIGN §4): every edit a run applied, turned back into one new proposal.

From the run's trace (`run_trace.py`): for each file the run changed, its content before
the run's first applied change and after its last. A write the trace journaled as
`applying` but never resolved (the process died in between) counts for the files that
hold its `after` (the write landed); the others did not change. A file that still holds the latter is
put back as it was (a file the run created is deleted, one it deleted comes back); a file
that changed since (the user's edit, another run) is skipped with the reason and never
overwritten. The proposal goes through the store like any other, so it is reviewed (per
hunk too) before anything is written. Must not know: LSP, the agent, how it is asked for.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentls.tools.proposals import FileChange, Proposal, ProposalStore
from agentls.tools.run_trace import decode, trace_path


class UndoError(Exception):
    """The run cannot be undone (unknown id, unreadable trace); the message says why."""


@dataclass
class UndoPlan:
    run_id: str
    changes: list[FileChange] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    proposal: Proposal | None = None

    def to_dict(self) -> dict[str, Any]:
        """The `agent/undo` answer: `{proposalId | null, files, skipped}`."""
        return {
            "proposalId": self.proposal.id if self.proposal else None,
            "files": [c.path for c in self.changes],
            "skipped": list(self.skipped),
        }


def load_trace(root: str | os.PathLike[str], run_id: str) -> dict[str, Any]:
    try:
        path = trace_path(root, run_id)
    except ValueError as exc:
        raise UndoError(str(exc)) from None
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise UndoError(
            f"unknown run {run_id!r}: no trace {path.relative_to(root)} in this workspace"
        ) from None
    except (OSError, ValueError) as exc:
        raise UndoError(f"the trace of run {run_id!r} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("runId") != run_id:
        raise UndoError(f"{path} is not the trace of run {run_id!r}")
    return data


def _applied(
    trace: dict[str, Any], now: Callable[[str], bytes | None]
) -> tuple[dict[str, bytes | None], dict[str, bytes | None]]:
    """Each file's content before the run's first applied change and after its last (an
    interrupted write counts where it landed: the file holds its `after`, read by `now`)."""
    first: dict[str, bytes | None] = {}
    last: dict[str, bytes | None] = {}
    proposals = trace.get("proposals")
    for record in proposals if isinstance(proposals, list) else []:
        if not isinstance(record, dict):
            continue
        status = record.get("status")
        if status == "applied":
            entries = record.get("applied") or []
        elif status == "applying":  # journaled, never resolved: the process died
            entries = [e for e in record.get("applying") or [] if _landed(e, now)]
        else:
            continue
        for entry in entries:
            path = entry["path"]
            if path not in first:
                first[path] = decode(entry.get("before"))
            last[path] = decode(entry.get("after"))
    return first, last


def _landed(entry: dict[str, Any], now: Callable[[str], bytes | None]) -> bool:
    try:
        return now(str(entry["path"])) == decode(entry.get("after"))
    except ValueError:  # a path the workspace refuses: left to plan_undo to say so
        return True


def plan_undo(store: ProposalStore, trace: dict[str, Any]) -> UndoPlan:
    """What undoing the traced run would change, and what it must skip."""
    run_id = str(trace.get("runId"))
    plan = UndoPlan(run_id)
    try:
        first, last = _applied(trace, store.workspace.read_bytes)
    except (KeyError, TypeError, ValueError) as exc:
        raise UndoError(f"the trace of run {run_id!r} is damaged: {exc}") from None
    for path, before in first.items():
        after = last[path]
        if before == after:
            continue  # the run put it back itself
        try:
            change = store.change(path, None, before)
        except Exception as exc:  # a path the workspace refuses (a tampered trace)
            plan.skipped.append({"path": str(path), "reason": f"refused: {exc}"})
            continue
        current = store.workspace.read_bytes(change.path)
        if current != after:
            what = "was deleted" if current is None else "changed"
            plan.skipped.append({
                "path": change.path,
                "reason": f"it {what} since run {run_id} last changed it; left as it is",
            })
            continue
        plan.changes.append(FileChange(change.path, change.uri, current, before, change.version))
    return plan


def undo_run(store: ProposalStore, run_id: str) -> UndoPlan:
    """Propose the undo of a run (from its trace in the store's workspace); the plan, with
    the new proposal when there is anything to undo."""
    plan = plan_undo(store, load_trace(store.workspace.root, run_id))
    if plan.changes:
        title = f"Undo run {run_id} ({len(plan.changes)} file{'s' if len(plan.changes) != 1 else ''})"
        plan.proposal = store.propose_changes(plan.changes, run_id=None, title=title)
    return plan
