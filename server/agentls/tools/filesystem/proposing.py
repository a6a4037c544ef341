"""Turning a file change into a proposal: the tool side.

Shared by `write_file`, `edit_file` and the symbol edits: refuse changes that break a
file's syntax, hand the proposal to `proposals.decisions.submit` (which follows the
approval: apply, wait for the decision, or leave it pending), and tell the model what
happened in words it can act on.
Must not know: the editor, LSP, the agent.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from agentls.tools.base import Tool, ToolContext, ToolError, ToolOutput
from agentls.tools.permissions import WRITE, Permission
from agentls.tools.proposals import Proposal
from agentls.tools.proposals.decisions import proposal_timeout, submit, write_failure
from agentls.tools.proposals.edit import changed_region

log = logging.getLogger(__name__)

class ProposalOutput(ToolOutput):
    proposal_id: str
    path: str
    status: Literal["pending", "applied", "rejected", "stale", "failed"]
    diff: str
    comment: str | None = Field(default=None, description="The user's comment with the decision.")
    auto_approved: str | None = Field(
        default=None, description="The user's auto-approve rule that let it go ahead without asking."
    )
    message: str


def call_timeout(base: float, ctx: ToolContext) -> float:
    """A write tool's deadline: its own work plus, with approval 'ask', the wait for a decision."""
    return base + (proposal_timeout(ctx) if ctx.approval == "ask" else 0.0)


class ProposingTool(Tool):
    """A tool whose result is a proposal (write_file, edit_file, the symbol edits): it needs
    `filesystemWrite`, and with approval 'ask' its deadline includes the wait for a decision."""

    permissions: ClassVar[frozenset[Permission]] = frozenset({WRITE})
    Output: ClassVar[type[BaseModel]] = ProposalOutput
    timeout_s = 30.0

    def timeout_for(self, input: Any, ctx: ToolContext) -> float:
        return call_timeout(self.timeout_s, ctx)


def check_syntax(tool: str, path: str, old: bytes | None, new: bytes) -> None:
    """Refuse a change that turns a file that parses into one with syntax errors."""
    try:
        from agentls.analysis.syntax import python_error, syntax_errors
    except Exception:  # the analysis layer is optional here
        return
    try:
        after = syntax_errors(path, new)
        if not after:
            after = _python_errors(python_error, path, old, new)
            if not after:
                return
        before = syntax_errors(path, old) if old is not None else []
    except Exception as exc:  # a checker bug must not block edits
        log.warning("syntax check of %s failed: %s", path, exc)
        return
    if before:
        return  # it was already broken: the agent may be fixing it step by step
    where = "; ".join(f"line {line}, character {char}: {msg}" for line, char, msg in after[:3])
    more = f" (and {len(after) - 3} more)" if len(after) > 3 else ""
    raise ToolError(
        "runtime",
        f"refused: the change would introduce syntax errors in {path} at {where}{more} "
        "(positions 0-based, in the changed file); no proposal was made",
        tool,
        path=path,
        errors=[list(e) for e in after[:20]],
    )


def _python_errors(
    python_error: Any, path: str, old: bytes | None, new: bytes
) -> list[tuple[int, int, str]]:
    """CPython's error in `new` when the grammar saw none — only where CPython is the judge:
    the old text compiled (so newer syntax than this interpreter's is not refused), or, for
    a new file, the error is an indentation error (a fragment written as a file)."""
    error = python_error(path, new)
    if error is None:
        return []
    if old is None:
        return [error] if error[2].startswith(("IndentationError", "TabError")) else []
    return [] if python_error(path, old) is not None else [error]


def propose(
    ctx: ToolContext, tool: str, path: str, old: bytes | None, new: bytes, note: str = ""
) -> ProposalOutput:
    """Create the proposal for `path` (old=None: a new file) and follow ctx.approval."""
    check_syntax(tool, path, old, new)
    proposal, approval, waited_out, note = submit(
        ctx, lambda store: store.draft(path, old, new, run_id=ctx.run_id), note, tool=tool
    )
    if proposal.status == "failed":
        raise write_failure(proposal, tool)
    return ProposalOutput(
        proposal_id=proposal.id,
        path=proposal.path,
        status=proposal.status,
        diff=proposal.diff,
        comment=proposal.comment,
        auto_approved=proposal.auto_approved,
        message=(_message(proposal, approval, waited_out, ctx) + note).strip()
        + _region(proposal, old, new),
    )


def _region(proposal: Proposal, old: bytes | None, new: bytes) -> str:
    """The changed region as the file now reads, when the change is in place (or pending)."""
    if proposal.status not in ("applied", "pending"):
        return ""
    if proposal.partial or proposal.edited_paths:  # what the accepted hunks or the user made of it
        new = proposal.targets().get(proposal.path) or b""
    return "\n" + changed_region(old, new)


def _message(proposal: Proposal, approval: str, waited_out: bool, ctx: ToolContext) -> str:
    if proposal.status == "applied" and proposal.partial:
        said = f" The user said: {proposal.comment}." if proposal.comment else ""
        return f"Applied in part to {proposal.path}. {proposal.note or ''}{said}"
    if proposal.status == "applied" and proposal.edited_paths:
        said = f" The user said: {proposal.comment}." if proposal.comment else ""
        return (
            f"Applied with the user's changes to {proposal.path}: build on the file as it now "
            f"is.{said} {proposal.note or ''}"
        )
    if proposal.status == "applied":
        return (
            f"Applied: {proposal.path} now contains the change. It is in place: "
            "do not make it again."
        )
    if proposal.status == "rejected":
        said = f": {proposal.comment}" if proposal.comment else " (no comment)"
        return f"The change to {proposal.path} was rejected by the user{said}."
    if proposal.status == "stale":
        why = proposal.note or "the file changed since the proposal was made"
        return f"Not applied (stale): {why}. Read {proposal.path} again and redo the change."
    if waited_out:
        why = (
            "the run was cancelled"
            if ctx.cancel.is_set()
            else f"no decision within {proposal_timeout(ctx):g} s"
        )
        return f"Proposal {proposal.id} is still pending ({why}); your reads of {proposal.path} show it."
    return (
        f"Proposal {proposal.id} is pending the user's review (approval {approval!r}); "
        f"your reads of {proposal.path} show it as if applied. The change is made: "
        "do not make it again."
    )
