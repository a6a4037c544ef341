"""What becomes of a new proposal under the approval a tool call runs with.

`submit` adds the proposal a tool built (a draft: `store.draft*`) to the call's store and
follows `ctx.approval`: `auto` (only in modes that allow it) applies it at once, `ask`
waits for the user's decision (bounded by the proposal timeout, and by the call's cancel
event) — unless an auto-approve rule covers it (`tools/auto_approval.py`): then it is
marked with the rule before anyone hears of it and applied at once, and the call's
context records the rule for the audit log —, `never` leaves it pending. An applied
change is re-indexed at once; `write_failure` is the `runtime` error a tool raises for a
proposal the OS kept off the disk (status "failed"). Shared by every tool whose result is a proposal (the file
and symbol edits, the shell tools' scratch changes).
Must not know: the editor, LSP, the agent; which tool made the proposal only as a name
for the rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from agentls.tools.auto_approval import proposal_rule
from agentls.tools.base import ToolContext, ToolError
from agentls.tools.permissions import approval_for
from agentls.tools.proposals.store import Proposal, ProposalStore

log = logging.getLogger(__name__)

DEFAULT_PROPOSAL_TIMEOUT_S = 600.0


def proposal_timeout(ctx: ToolContext) -> float:
    return float(ctx.extra.get("proposal_timeout_s", DEFAULT_PROPOSAL_TIMEOUT_S))


def _store(ctx: ToolContext) -> ProposalStore:
    if ctx.proposals is None:
        ctx.proposals = ProposalStore(ctx.workspace)
    return ctx.proposals


def _wait(store: ProposalStore, proposal: Proposal, ctx: ToolContext) -> bool:
    """Wait for the decision (woken by it, or by the call's cancel event); False when the
    proposal timeout ran out or the call was cancelled first."""
    return store.wait(proposal.id, proposal_timeout(ctx), ctx.cancel).status != "pending"


def submit(
    ctx: ToolContext,
    make: Callable[[ProposalStore], Proposal],
    note: str = "",
    *,
    tool: str = "",
    command: str | None = None,
) -> tuple[Proposal, str, bool, str]:
    """Add the proposal `make` drafts (made by `tool`, a shell tool's from `command`) and
    follow ctx.approval: (the proposal, the approval followed, whether the wait for a
    decision ran out, the note for the model)."""
    store = _store(ctx)
    proposal = make(store)
    mode = ctx.permissions.mode or ""
    if store.get(proposal.id) is None:  # a draft: the rules may mark it before it is heard of
        paths = [c.path for c in proposal.changes]
        proposal.auto_approved = proposal_rule(ctx.settings, mode, ctx.approval, tool, paths, command)
        store.add(proposal)
    grant = approval_for(mode, ctx.approval)
    approval = grant.approval
    if grant.changed:
        note += f" Approval {grant.asked!r} is not allowed in mode {ctx.permissions.mode!r}; asking instead."
    waited_out = False
    if proposal.auto_approved is not None:
        ctx.auto_approved.append(proposal.auto_approved)
        store.resolve(proposal.id, "accepted")
        note += f" It went ahead without asking: the user's rule {proposal.auto_approved} approves it."
    elif approval == "auto":
        store.resolve(proposal.id, "accepted")
    elif approval == "ask":
        waited_out = not _wait(store, proposal, ctx)
    if proposal.status == "applied" and ctx.index is not None:
        for change in proposal.changes:
            _reindex(ctx, change.path)
    return proposal, approval, waited_out, note


def _reindex(ctx: ToolContext, path: str) -> None:
    """The run's index sees an applied change at once (find_references right after a rename
    by edit_file answered from the old text)."""
    try:
        ctx.index.update_file(path)  # type: ignore[union-attr]
    except Exception as exc:  # the index is a help here, never a reason to fail the edit
        log.warning("re-indexing %s after its change failed: %s", path, exc)




def write_failure(proposal: Proposal, tool: str) -> ToolError:
    """A failed proposal as the model hears it: a `runtime` error naming the cause, saying
    that nothing changed and that redoing the edit will not help."""
    why = proposal.note or "it could not be written; nothing was changed"
    files = ", ".join(c.path for c in proposal.changes)
    return ToolError(
        "runtime",
        f"Not applied to {files}: {why}. The cause is the disk or the file's permissions, "
        "not the change: making it again will fail the same way until that is fixed.",
        tool,
        proposal_id=proposal.id,
    )
