"""One workspace's tools, shared by every run and one-off tool call made there.

A `Workbench` holds the registry, the executor with the workspace's audit log
(`.agentls/audit.jsonl`), the ProposalStore (its applier is the front end's to replace:
the LSP applies through the editor) and, when the front end keeps one, the index with the
event set once it is built. Memory is not kept here: a run opens it when a component first
needs it and closes it at its end.

`Workbench.indexed` opens a folder's workbench with its index built in a background thread
(a front end that keeps no index of its own: `agentls mcp`, `agentls acp`).

A one-off call (`agent/executeTool`, `agentls tool`, MCP's `tools/call`) gets its own id
(`tool-…`) as its run id, so its proposals flow like a run's: `call_context` makes its
ToolContext, `call` waits (bounded) for the first index and runs it, closing what the call
opened.

The MCP servers of the `mcpServers` setting (DESIGN §10) are the workbench's too: its
registry lists their tools through an `McpProvider`. They start on first use; a front end
on an event loop awaits `prepare_tools()` before it lists tools (a run does so itself),
swaps the servers with `use_mcp_servers()` when its settings change, and calls `close()`
(or `aclose()`) when it is done with the workbench: that stops every server.
Must not know: any front end, how a proposal reaches a user.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentls.settings import McpServerConfig, Settings
from agentls.tools.audit import AuditLog
from agentls.tools.base import CancelEvent, ToolContext
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.mcp import McpProvider
from agentls.tools.permissions import PLAN_THEN, Approval, PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.tools.registry import ToolRegistry, default_registry
from agentls.tools.run_trace import new_run_id
from agentls.workspace import Workspace

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex

log = logging.getLogger(__name__)

#: How long a run or a tool call waits at most for the workspace's first index.
INDEX_WAIT_S = 30.0


@dataclass
class Workbench:
    workspace: Workspace
    registry: ToolRegistry
    executor: ToolExecutor
    proposals: ProposalStore
    index: WorkspaceIndex | None = None
    ready: threading.Event | None = None  # set once `index` is built; None: nothing to wait for
    mcp: McpProvider | None = field(default=None, repr=False)

    @classmethod
    def open(
        cls,
        workspace: Workspace,
        *,
        index: WorkspaceIndex | None = None,
        ready: threading.Event | None = None,
        settings: Settings | None = None,
    ) -> Workbench:
        """The workbench of `workspace`; `settings`: its `mcpServers` join the registry."""
        registry = default_registry()
        mcp = McpProvider(workspace.root, settings.mcp_servers if settings is not None else {})
        registry.add_source(mcp)
        executor = ToolExecutor(registry, AuditLog.for_workspace(workspace.root))
        return cls(workspace, registry, executor, ProposalStore(workspace), index, ready, mcp)

    def use_mcp_servers(self, servers: Mapping[str, McpServerConfig]) -> None:
        """The MCP servers from now on (an unchanged entry keeps running; see McpProvider)."""
        if self.mcp is not None:
            self.mcp.configure(servers)

    async def prepare_tools(self, cancel: CancelEvent | None = None) -> None:
        """Start the MCP servers not started yet and wait (bounded; `cancel` stops the wait)
        until each lists its tools or failed, so a listing on the loop need not wait."""
        if self.mcp is not None:
            await self.mcp.prepare(cancel)

    def close(self) -> None:
        """Stop the MCP servers (bounded). The workbench's other parts need no closing."""
        if self.mcp is not None:
            self.mcp.close()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    @classmethod
    def indexed(cls, root: str | Path, settings: Settings) -> Workbench:
        """The workbench of the folder `root`, its index built in a background thread
        (`ready` is set when the build ends, built or failed; calls wait for it, bounded)."""
        from agentls.analysis.index import WorkspaceIndex

        workspace = Workspace(root)
        index = WorkspaceIndex(workspace.root, workspace=workspace, jobs=settings.index_jobs,
                               cache_dir=None if settings.index_cache else False)  # fmt: skip
        ready = threading.Event()

        def build() -> None:
            try:
                index.build()
            except Exception:
                log.exception("indexing %s failed", workspace.root)
            finally:
                ready.set()

        threading.Thread(target=build, name="workbench-index", daemon=True).start()
        return cls.open(workspace, index=index, ready=ready, settings=settings)

    def call_context(self, *, mode: str, approval: Approval, settings: Settings) -> ToolContext:
        """The context of one tool call in `mode` with `approval` (its own `tool-…` id; a
        call has no plan: `plan` is followed as `ask`)."""
        return ToolContext(
            workspace=self.workspace,
            permissions=PermissionSet.for_mode(mode),
            index=self.index,
            proposals=self.proposals,
            run_id=new_run_id("tool"),
            approval=PLAN_THEN if approval == "plan" else approval,
            extra={"proposal_timeout_s": settings.proposal_timeout_s},
            settings=settings,
        )

    async def call(self, ctx: ToolContext, name: str, raw_input: Any) -> ToolResult:
        """Run one tool with `ctx` (from `call_context`), once the first index is built or
        INDEX_WAIT_S passed; closes the memory the call opened."""
        if self.ready is not None and not self.ready.is_set():
            await asyncio.to_thread(self.ready.wait, INDEX_WAIT_S)
        try:
            return await self.executor.execute_async(name, raw_input, ctx)
        finally:
            if ctx.memory is not None:  # opened by a knowledge tool for this call
                with contextlib.suppress(Exception):
                    ctx.memory.close()
