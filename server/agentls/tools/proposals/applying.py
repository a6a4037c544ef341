"""How an accepted proposal is written when no front end writes it (the store's default
applier), and how the store names writers and OS failures.

`write_atomically` puts a proposal's files on disk all or nothing through
`workspace.durable.replace_files` (the store calls it under the workspace's write lock);
`writer` is who a proposal's write is by, as the lock and a stale note name it;
`os_failure` is an OSError in words (its errno name, and the hint that EPERM may be an
immutable file). Must not know: LSP, the agent, the store's bookkeeping.
"""

from __future__ import annotations

import errno

from agentls.tools.proposals.model import Proposal
from agentls.workspace import Workspace
from agentls.workspace.durable import replace_files


def write_atomically(workspace: Workspace, proposal: Proposal) -> None:
    """The default applier: the files replaced on disk all or nothing (or deleted), inside
    the workspace; files that already hold their target are left alone. OSError: nothing
    was changed."""
    targets = proposal.targets()
    replace_files(
        workspace.root, {p: d for p, d in targets.items() if workspace.read_bytes(p) != d}
    )


def writer(proposal: Proposal) -> str:
    """Who writes a proposal, as the write lock and the stale note name it."""
    if proposal.run_id:
        return f"run {proposal.run_id} (proposal {proposal.id})"
    return f"proposal {proposal.id} ({proposal.title})"


def os_failure(exc: OSError) -> str:
    """An OS failure in words: what, its errno name, which file."""
    name = errno.errorcode.get(exc.errno or 0)
    what = exc.strerror or str(exc)
    text = f"{what} ({name})" if name else what
    if exc.errno == errno.EPERM:
        text += ": the file or its folder may be immutable (chattr +i)"
    return f"{text}: {exc.filename}" if exc.filename else text
