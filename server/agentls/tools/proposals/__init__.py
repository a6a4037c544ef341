"""Proposals: the edits a run or a tool call wants to make, waiting for a decision (DESIGN §4).

- `model.py` — a proposal as data: its file changes, diff, WorkspaceEdit and hunks.
- `edit.py`, `hunks.py` — how a change is shown: a unified diff, an LSP-shaped edit, and
  the per-hunk edits of per-hunk review.
- `store.py` — the `ProposalStore`: pending proposals, decisions, staleness, the applier,
  and the events its listeners hear.
- `applying.py` — the default applier (all or nothing on disk) and how writers and OS
  failures are named.
- `decisions.py` — what a tool's new proposal becomes under the call's approval.

Must not know: LSP, the agent, any model.
"""

from agentls.tools.proposals.applying import write_atomically
from agentls.tools.proposals.model import FileChange, Proposal, Status, content_hash
from agentls.tools.proposals.store import Decision, ProposalStore

__all__ = [
    "Decision",
    "FileChange",
    "Proposal",
    "ProposalStore",
    "Status",
    "content_hash",
    "write_atomically",
]
