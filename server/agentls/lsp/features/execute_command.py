"""`workspace/executeCommand`: `agentls.agent.run {goal, sessionId?, mode?, approval?,
maxSteps?, context?: {uri, range?, diagnostics?}}` starts an agent run (what the code
actions run) → `{runId, sessionId}`;
`agentls.agent.cancel {runId}` cancels one. The same as `agent/run` / `agent/cancel`
for clients that only speak standard LSP.
"""

from __future__ import annotations

from typing import Any

from agentls.lsp.language_server import AgentLanguageServer

#: The command ids (declared here only; code_action.py offers RUN; protocol.ts mirrors them).
RUN = "agentls.agent.run"
CANCEL = "agentls.agent.cancel"


def register(server: AgentLanguageServer) -> None:
    @server.command(RUN)
    async def run(ls: AgentLanguageServer, argument: Any = None) -> dict[str, Any]:
        from agentls.lsp.features.agent_run import start_from_params

        return await start_from_params(ls, argument)

    @server.command(CANCEL)
    async def cancel(ls: AgentLanguageServer, argument: Any = None) -> dict[str, Any]:
        from agentls.lsp.features.agent_cancel import cancel_from_params

        return await cancel_from_params(ls, argument)
