"""The tools of each workspace folder: registry, executor and ProposalStore; `agent/tools`
listings, one-off `agent/executeTool` calls, and the proposals of the whole server.

Each store is attached to the ProposalBridge (its proposals reach the editor, accepted
ones are applied through it). A tool call gets its own id (`tool-…`) as its run id and the
settings' approval, so its proposals flow like a run's. Resolving runs off the loop: the
store's applier may wait for the editor. Must not know: runs, the agent loop, LSP params.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from agentls.lsp.params import AgentRequestError
from agentls.lsp.proposals import ProposalBridge
from agentls.tools.audit import AuditLog
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.permissions import PermissionSet, approval_for
from agentls.tools.proposals import Decision, ProposalStore
from agentls.tools.registry import ToolRegistry, default_registry
from agentls.tools.run_trace import new_run_id

if TYPE_CHECKING:
    from agentls.lsp.server import AgentLanguageServer, Project

DECISIONS = ("accepted", "rejected")
INDEX_WAIT_S = 30.0  # a tool call waits this long at most for the first index


@dataclass
class ProjectTools:
    project: Project
    registry: ToolRegistry
    executor: ToolExecutor
    proposals: ProposalStore


class Toolbox:
    def __init__(self, server: AgentLanguageServer, bridge: ProposalBridge) -> None:
        self.server = server
        self.bridge = bridge
        self._projects: dict[Any, ProjectTools] = {}
        self._calls: dict[str, ToolContext] = {}  # agent/executeTool calls in flight

    def of(self, project: Project) -> ProjectTools:
        """The tools of a project, made on first use (again if the folder was re-added)."""
        tools = self._projects.get(project.root)
        if tools is None or tools.project is not project:
            registry = default_registry()
            store = ProposalStore(project.workspace)
            self.bridge.attach(store)
            executor = ToolExecutor(registry, AuditLog.for_workspace(project.root))
            tools = self._projects[project.root] = ProjectTools(project, registry, executor, store)
        return tools

    def schemas(self, mode: str | None = None) -> list[dict[str, Any]]:
        """The `agent/tools` entries for a mode (default: the settings'), checked against
        the first workspace folder when there is one."""
        permissions = PermissionSet.for_mode(mode or self.server.settings.mode)
        if not self.server.projects:
            return default_registry().schemas(permissions)
        project = next(iter(self.server.projects.values()))
        ctx = ToolContext(
            workspace=project.workspace, permissions=permissions, settings=self.server.settings
        )
        return self.of(project).registry.schemas(permissions, ctx)

    async def execute(
        self, project: Project, name: str, raw_input: Any, mode: str | None = None
    ) -> dict[str, Any]:
        """One tool call with the settings' approval: `{ok, output}` or `{ok, error}`."""
        settings = self.server.settings
        mode = mode or settings.mode
        tools = self.of(project)
        if not project.ready.is_set():
            await asyncio.to_thread(project.ready.wait, INDEX_WAIT_S)
        call_id = new_run_id("tool")
        ctx = ToolContext(
            workspace=project.workspace,
            permissions=PermissionSet.for_mode(mode),
            index=project.index,
            proposals=tools.proposals,
            run_id=call_id,
            approval=settings.approval,
            extra={"proposal_timeout_s": settings.proposal_timeout_s},
            settings=settings,
        )
        if approval_for(mode, ctx.approval).approval == "auto":
            self.bridge.auto_runs.add(call_id)
        self._calls[call_id] = ctx
        try:
            result = await tools.executor.execute_async(name, raw_input, ctx)
        finally:
            self._calls.pop(call_id, None)
            self.bridge.auto_runs.discard(call_id)
            if ctx.memory is not None:  # opened by a knowledge tool for this call
                with contextlib.suppress(Exception):
                    ctx.memory.close()
        return result.to_dict()

    def cancel_calls(self) -> None:
        for ctx in list(self._calls.values()):
            ctx.cancel.set()

    # --- proposals ---------------------------------------------------------------------
    def proposals(self, run_id: str | None = None) -> list[dict[str, Any]]:
        items = [p for tools in self._projects.values() for p in tools.proposals.list(run_id)]
        return [p.to_dict() for p in sorted(items, key=lambda p: p.created_at)]

    async def resolve(
        self,
        proposal_id: str,
        decision: str,
        comment: str | None = None,
        hunks: list[int] | None = None,
    ) -> dict[str, Any]:
        """Accept (all, or the `hunks` given) or reject; `{id, status}` (applied | rejected |
        stale)."""
        if decision not in DECISIONS:
            raise AgentRequestError(
                f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}", "decision"
            )
        for tools in self._projects.values():
            store = tools.proposals
            proposal = store.get(proposal_id)
            if proposal is not None:
                if hunks is not None:
                    if decision != "accepted":
                        raise AgentRequestError("hunks go with the decision 'accepted' only", "hunks")
                    try:
                        proposal.check_hunks(hunks)
                    except ValueError as exc:
                        raise AgentRequestError(str(exc), "hunks", id=proposal_id) from None
                status = await asyncio.to_thread(
                    store.resolve, proposal_id, cast(Decision, decision), comment, hunks
                )
                return {"id": proposal_id, "status": status}
        raise AgentRequestError(f"unknown proposal id {proposal_id!r}", "id", id=proposal_id)
