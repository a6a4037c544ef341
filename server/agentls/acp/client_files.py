"""Files through the ACP client (`fs/read_text_file`, `fs/write_text_file`), where it offers them.

`ClientFiles.read` is the run's `ToolContext.editor`: a tool's read of a file asks the client
for its text, unsaved changes included, and keeps that text as the workspace's open buffer
(so the index and the staleness check of a proposal see what the agent read).
`ClientFiles.apply` is the ProposalStore's applier: an accepted change of a text file is
written through the client (the editor's buffer and its save), then kept as the open
buffer; a created file the client cannot take, a deletion or a binary change is written to
disk atomically as usual. Both run on a worker thread (a tool's, or the thread a decision
is applied on) and wait, bounded, for the client on the connection's loop; called on the
loop itself they do not ask (the disk is used).
Must not know: the run, sessions, how permission is asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import threading
from collections.abc import Coroutine
from typing import Any

from agentls.tools.proposals import Proposal, write_atomically
from agentls.tools.proposals.model import FileChange
from agentls.workspace import Workspace

log = logging.getLogger(__name__)

#: How long a read or a write waits for the client.
CLIENT_TIMEOUT_S = 15.0


class ClientFiles:
    def __init__(
        self,
        conn: Any,
        session_id: str,
        workspace: Workspace,
        loop: asyncio.AbstractEventLoop,
        *,
        can_read: bool,
        can_write: bool,
    ) -> None:
        self.conn = conn
        self.session_id = session_id
        self.workspace = workspace
        self.loop = loop
        self.can_read = can_read
        self.can_write = can_write
        self._loop_thread = threading.get_ident()

    def _call(self, request: Coroutine[Any, Any, Any]) -> Any:
        """Run a client request from a worker thread and wait for it (TimeoutError, or the
        client's error)."""
        if threading.get_ident() == self._loop_thread or self.loop.is_closed():
            request.close()
            raise RuntimeError("a client call cannot wait on the connection's own loop")
        future = asyncio.run_coroutine_threadsafe(request, self.loop)
        try:
            return future.result(CLIENT_TIMEOUT_S)
        except BaseException:
            future.cancel()
            raise

    # --- reads (ToolContext.editor) -------------------------------------------------
    def read(self, rel: str) -> bytes | None:
        if not self.can_read:
            return None
        path = str(self.workspace.root / rel)
        try:
            answer = self._call(self.conn.read_text_file(session_id=self.session_id, path=path))
        except Exception as exc:  # no such file, a client error, no answer: the disk decides
            log.debug("fs/read_text_file %s: %s", path, exc)
            return None
        text = getattr(answer, "content", None)
        if not isinstance(text, str):
            return None
        data = text.encode("utf-8")
        current = self.workspace.read_bytes(rel)
        if current != data:  # the editor's text differs from what the server had: keep it
            self.workspace.open(rel, text)
        return data

    # --- writes (ProposalStore.applier) ---------------------------------------------
    def apply(self, proposal: Proposal) -> None:
        targets = proposal.targets()
        through_client = {
            path: data.decode("utf-8")
            for path, data in targets.items()
            if data is not None and self._writable(data)
        }
        rest = [c for c in proposal.changes if c.path not in through_client]
        if rest:
            write_atomically(self.workspace, _only(proposal, rest))
        for rel, content in through_client.items():
            self._write(str(self.workspace.root / rel), content)
            self.workspace.open(rel, content)

    def _write(self, path: str, content: str) -> None:
        self._call(self.conn.write_text_file(session_id=self.session_id, path=path, content=content))

    def _writable(self, data: bytes) -> bool:
        if not self.can_write or threading.get_ident() == self._loop_thread:
            return False
        with contextlib.suppress(UnicodeDecodeError):
            data.decode("utf-8")
            return True
        return False


def _only(proposal: Proposal, changes: list[FileChange]) -> Proposal:
    """The proposal cut to some of its changes (for the atomic disk write)."""
    part = copy.copy(proposal)
    part.changes = changes
    return part
