"""The workbench of each workspace folder (`agent.launch.Workbench`: registry, executor
and audit log, ProposalStore, index), attached to the editor; `agent/tools` listings,
one-off `agent/executeTool` calls, and the proposals of the whole server.

Each workbench's store is attached to the ProposalBridge (its proposals reach the editor,
accepted ones are applied through it). A tool call runs with the settings' approval under
its own id, so its proposals flow like a run's; one the approval rule applies at once is
not presented. Resolving runs off the loop: the store's applier may wait for the editor.

Each workbench runs the MCP servers of the settings' `mcpServers`: a listing waits for
them to start (bounded) off the loop first, a change of the setting swaps them in every
workbench (`settings_changed`), and `aclose` stops them all at shutdown.
Must not know: runs, the agent loop, LSP params.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from agentls.agent.launch import Workbench
from agentls.lsp.convert import uri_to_path
from agentls.lsp.params import AgentRequestError
from agentls.lsp.proposals import ProposalBridge
from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet, approval_for
from agentls.tools.proposals import Decision, Proposal
from agentls.tools.registry import default_registry
from agentls.workspace import PathOutsideWorkspace, Workspace

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer, Project

DECISIONS = ("accepted", "rejected")


class Toolbox:
    def __init__(self, server: AgentLanguageServer, bridge: ProposalBridge) -> None:
        self.server = server
        self.bridge = bridge
        self._benches: dict[Any, Workbench] = {}
        self._calls: dict[str, ToolContext] = {}  # agent/executeTool calls in flight

    def of(self, project: Project) -> Workbench:
        """The workbench of a project, made on first use (again if the folder was re-added)."""
        settings = self.server.settings
        bench = self._benches.get(project.root)
        if bench is None or bench.workspace is not project.workspace:
            if bench is not None:
                self.server.spawn(bench.aclose())
            bench = Workbench.open(project.workspace, index=project.index, ready=project.ready, settings=settings)
            self.bridge.attach(bench.proposals)
            self._benches[project.root] = bench
        else:
            bench.use_mcp_servers(settings.mcp_servers)
        return bench

    def settings_changed(self) -> None:
        """New settings: each workbench's MCP servers follow `mcpServers` (the ones whose
        entry changed or went away stop; new ones start on first use)."""
        for bench in self._benches.values():
            bench.use_mcp_servers(self.server.settings.mcp_servers)

    async def schemas(self, mode: str | None = None) -> list[dict[str, Any]]:
        """The `agent/tools` entries for a mode (default: the settings'), checked against
        the first workspace folder when there is one (its MCP servers started first)."""
        permissions = PermissionSet.for_mode(mode or self.server.settings.mode)
        if not self.server.projects:
            return default_registry().schemas(permissions)
        project = next(iter(self.server.projects.values()))
        ctx = ToolContext(
            workspace=project.workspace, permissions=permissions, settings=self.server.settings
        )
        bench = self.of(project)
        await bench.prepare_tools()
        return bench.registry.schemas(permissions, ctx)

    async def execute(
        self, project: Project, name: str, raw_input: Any, mode: str | None = None
    ) -> dict[str, Any]:
        """One tool call with the settings' approval: `{ok, output}` or `{ok, error}`."""
        settings = self.server.settings
        mode = mode or settings.mode
        bench = self.of(project)
        ctx = bench.call_context(mode=mode, approval=settings.approval, settings=settings)
        call_id = ctx.run_id or ""
        if approval_for(mode, ctx.approval).approval == "auto":
            self.bridge.auto_runs.add(call_id)
        self._calls[call_id] = ctx
        try:
            result = await bench.call(ctx, name, raw_input)
        finally:
            self._calls.pop(call_id, None)
            self.bridge.auto_runs.discard(call_id)
        return result.to_dict()

    def cancel_calls(self) -> None:
        for ctx in list(self._calls.values()):
            ctx.cancel.set()

    async def aclose(self) -> None:
        """Stop every workbench's MCP servers."""
        await asyncio.gather(*(bench.aclose() for bench in self._benches.values()))

    # --- proposals ---------------------------------------------------------------------
    def proposals(self, run_id: str | None = None) -> list[dict[str, Any]]:
        items = [p for bench in self._benches.values() for p in bench.proposals.list(run_id)]
        return [p.to_dict() for p in sorted(items, key=lambda p: p.created_at)]

    async def resolve(
        self,
        proposal_id: str,
        decision: str,
        comment: str | None = None,
        hunks: list[int] | None = None,
        content: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Accept (all, the `hunks` given, or with the user's `content` by URI) or reject;
        `{id, status}` (applied | rejected | stale)."""
        if decision not in DECISIONS:
            raise AgentRequestError(
                f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}", "decision"
            )
        for bench in self._benches.values():
            store = bench.proposals
            proposal = store.get(proposal_id)
            if proposal is not None:
                if hunks is not None:
                    if decision != "accepted":
                        raise AgentRequestError("hunks go with the decision 'accepted' only", "hunks")
                    try:
                        proposal.check_hunks(hunks)
                    except ValueError as exc:
                        raise AgentRequestError(str(exc), "hunks", id=proposal_id) from None
                edited = None if content is None else _edited(proposal, store.workspace, decision, content)
                status = await asyncio.to_thread(
                    store.resolve, proposal_id, cast(Decision, decision), comment, hunks, edited
                )
                return {"id": proposal_id, "status": status}
        raise AgentRequestError(f"unknown proposal id {proposal_id!r}", "id", id=proposal_id)


def _edited(proposal: Proposal, workspace: Workspace, decision: str, content: dict[str, str]) -> dict[str, bytes]:
    """`content` by workspace-relative path, each URI a file of the proposal; -32602 naming
    `content` otherwise."""
    if decision != "accepted":
        raise AgentRequestError("content goes with the decision 'accepted' only", "content", id=proposal.id)
    edited: dict[str, bytes] = {}
    for uri, text in content.items():
        path = uri_to_path(uri)
        if path is None:
            raise AgentRequestError(f"content: {uri!r} is not a file URI", "content", id=proposal.id, uri=uri)
        try:
            rel = workspace.relative(path)
        except PathOutsideWorkspace as exc:
            raise AgentRequestError(f"content: {uri} is outside the workspace ({exc})", "content", id=proposal.id, uri=uri) from None
        edited[rel] = text.encode("utf-8")
    try:
        return proposal.check_content(edited)
    except ValueError as exc:
        raise AgentRequestError(f"content: {exc}", "content", id=proposal.id) from None
