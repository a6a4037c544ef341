"""Shell edits are proposals: what a command changed in its scratch copy comes back as
one proposal (created, changed and deleted files), reviewed like `write_file`'s.

`edits_mode` says how a shell tool runs: with approval `auto` (in a mode that allows
it) in the real workspace, whose changes are then in place; with `ask` or `never` in a
scratch copy with the run's pending proposals applied, and `propose_edits` turns the
copy's changes into the proposal and follows the approval through the flow the edit
tools share (`proposing.submit`: `ask` waits for the decision, bounded; `never` leaves
it pending). The model reads the outcome in `edits`.
Must not know: the editor, LSP, the agent, how the sandbox confines.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentls.tools.base import ToolContext, ToolOutput
from agentls.tools.permissions import approval_for
from agentls.tools.proposals import Proposal, ProposalStore
from agentls.tools.proposals.decisions import proposal_timeout, submit
from agentls.tools.sandbox import Changes

TITLE_CHARS = 80


class ShellEdits(ToolOutput):
    """What became of the files the command changed."""

    status: Literal["none", "in_place", "pending", "applied", "rejected", "stale", "failed"] = Field(
        description="none: no file changed; in_place: approval auto, the command wrote the "
        "workspace itself; otherwise the proposal's status."
    )
    proposal_id: str | None = None
    files: list[str] = Field(default_factory=list, description="Files created, changed or deleted.")
    diff: str = ""
    comment: str | None = Field(default=None, description="The user's comment with the decision.")
    auto_approved: str | None = Field(
        default=None, description="The user's auto-approve rule that let it go ahead without asking."
    )
    not_proposed: dict[str, str] = Field(
        default_factory=dict, description="Changed files left out of the proposal, and why."
    )
    message: str


def edits_in_place(ctx: ToolContext) -> bool:
    """True when the command may write the real workspace (approval auto, allowed)."""
    return approval_for(ctx.permissions.mode or "", ctx.approval).approval == "auto"


def in_place_edits() -> ShellEdits:
    return ShellEdits(
        status="in_place",
        message="Approval is 'auto': the command ran in the workspace and its file changes are in place.",
    )


def propose_edits(ctx: ToolContext, command: str, found: Changes | None, tool: str = "") -> ShellEdits:
    """The proposal for `found` (None: the command did not finish, nothing is kept); the
    auto-approve rules see the tool's name and the command."""
    if found is None or not found.files:
        skipped = dict(found.skipped) if found else {}
        message = "The command changed no file in the workspace."
        if skipped:
            message = (
                "The command's file changes were not kept (see not_proposed); the workspace "
                "is unchanged. Make such changes in smaller steps."
            )
        return ShellEdits(status="none", not_proposed=skipped, message=message)
    short = command if len(command) <= TITLE_CHARS else command[: TITLE_CHARS - 1] + "…"
    changed = sorted(found.files.items())

    def make(store: ProposalStore) -> Proposal:
        changes = [store.change(path, _before(ctx, path), new) for path, new in changed]
        return store.draft_changes(changes, run_id=ctx.run_id, title=f"Shell: {short}")

    proposal, _, waited_out, note = submit(ctx, make, tool=tool, command=command)
    files = [c.path for c in proposal.changes]
    return ShellEdits(
        status=proposal.status,
        proposal_id=proposal.id,
        files=files,
        diff=proposal.diff,
        comment=proposal.comment,
        auto_approved=proposal.auto_approved,
        not_proposed=dict(found.skipped),
        message=(
            _message(
                proposal.status,
                proposal.id,
                files,
                proposal.comment,
                proposal.note,
                waited_out,
                ctx,
                bool(proposal.edited_paths),
            )
            + note
        ).strip(),
    )


def _before(ctx: ToolContext, path: str) -> bytes | None:
    """What the command saw: this run's pending content, else the file as it is."""
    pending = ctx.proposals.overlay(ctx.run_id, path) if ctx.proposals is not None else None
    return pending if pending is not None else ctx.workspace.read_bytes(path)


def _message(
    status: str,
    proposal_id: str,
    files: list[str],
    comment: str | None,
    note: str | None,
    waited_out: bool,
    ctx: ToolContext,
    edited: bool = False,
) -> str:
    names = ", ".join(files)
    if status == "applied" and edited:
        return f"Applied with the user's changes to {names}. {note or ''}"
    if status == "applied":
        return f"Applied: the command's changes to {names} are in place."
    if status == "rejected":
        said = f": {comment}" if comment else " (no comment)"
        return f"The command's changes to {names} were rejected by the user{said}; the files are unchanged."
    if status == "failed":
        return (
            f"Not applied: {note or 'the files could not be written'}. The cause is the disk or "
            "the files' permissions: running the command again will not help until that is fixed."
        )
    if status == "stale":
        return (
            f"Not applied (stale): {note or 'the files changed meanwhile'}. Run the command again."
        )
    if waited_out:
        why = (
            "the run was cancelled"
            if ctx.cancel.is_set()
            else f"no decision within {proposal_timeout(ctx):g} s"
        )
        return f"Proposal {proposal_id} ({names}) is still pending ({why}); your reads show it."
    return (
        f"The command ran in a scratch copy; its changes to {names} are proposal {proposal_id}, "
        "pending the user's review. Your reads show them as if applied: do not redo them."
    )
