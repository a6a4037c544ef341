"""The MCP server of one workspace's tools: the SDK's low-level `Server` with `tools/list`
and `tools/call`, built from a `Workbench`.

`tools/list` is the catalog for the server's mode. `tools/call` is a one-off call as
`agent/executeTool` and `agentls tool` make it: `Workbench.call_context` (its own id, the
mode's permissions, the approval) and `Workbench.call` (waits for the first index, then
the executor: validation, permission, deadline, audit log, structured errors). Unknown
tools, bad arguments and refusals come back as `isError` results, never as a crash; a
cancelled request cancels its call. The approval is decided once, by `approval_for` with
nobody to ask: `ask` proposes only, as `never` does, and a result whose proposal is left
pending says that nothing was written.
Must not know: transports, any particular tool, how the CLI reads its flags.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext

from agentls import __version__
from agentls.agent.launch import Workbench
from agentls.mcp_server import catalog, results
from agentls.mcp_server.freshness import DiskRefresh
from agentls.settings import Settings
from agentls.tools.base import ToolError
from agentls.tools.permissions import ApprovalGrant, PermissionSet

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "agentls: a tree-sitter code index and tools over the workspace {root} (mode {mode}). "
    "Paths are relative to the workspace root; lines and characters are 0-based. "
    "Errors come back as {{type, message, tool}} with type validation, permission or runtime."
)


class WorkspaceTools:
    """What the handlers share: the workbench, the settings, the mode and the approval."""

    def __init__(self, bench: Workbench, settings: Settings, mode: str, grant: ApprovalGrant) -> None:
        self.bench = bench
        self.settings = settings
        self.mode = mode
        self.grant = grant
        self.permissions = PermissionSet.for_mode(mode)
        self.refresh = DiskRefresh(bench)

    def server(self) -> Server[Any]:
        return Server(
            "agentls",
            version=__version__,
            instructions=INSTRUCTIONS.format(root=self.bench.workspace.root, mode=self.mode),
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )

    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=catalog.offered(self.bench, self.permissions, self.settings))

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            return await self.call(params.name, params.arguments)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception as exc:  # a bug here must not end the server
            log.exception("tools/call %s failed", params.name)
            return results.from_error(ToolError("runtime", f"{params.name} failed: {type(exc).__name__}: {exc}", params.name))

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        tool = self.bench.registry.get(name)
        if catalog.withheld(tool):
            return results.from_error(ToolError(
                "validation", f"{name!r} is not offered over MCP: it controls agentls's own agent runs", name,
            ))  # fmt: skip
        if self.refresh.due(tool):
            await asyncio.to_thread(self.refresh.refresh)
        ctx = self.bench.call_context(mode=self.mode, approval=self.grant.approval, settings=self.settings)
        try:
            result = await self.bench.call(ctx, name, arguments)
        except anyio.get_cancelled_exc_class():
            ctx.cancel.set()  # the client cancelled the request: stop the tool too
            raise
        pending = [p for p in self.bench.proposals.list(ctx.run_id) if p.status == "pending"]
        return results.from_result(result, [self._unwritten(p.id, p.path) for p in pending])

    def _unwritten(self, proposal_id: str, path: str) -> str:
        why = f"--approve {self.grant.asked}" + "".join(f": {r}" for r in self.grant.reasons)
        return (
            f"agentls: nothing was written. Proposal {proposal_id} is left pending under approval "
            f"{self.grant.approval!r} ({why}): no one can accept it over MCP, and later calls read "
            f"{path} as it is on disk. Apply the diff yourself, or start `agentls mcp` with "
            "--approve auto (modes dev and full) to have edits applied."
        )
