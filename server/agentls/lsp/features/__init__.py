"""One module per LSP method (or tightly related group); each exports `register(server)`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer

MODULES = (
    "lifecycle",
    "sync",
    "definition",
    "references",
    "document_symbol",
    "workspace_symbol",
    "hover",
    "rename",
    "code_action",
    "execute_command",
    "agent_run",
    "agent_status",
    "agent_sessions",
    "agent_cancel",
    "agent_tools",
    "agent_execute_tool",
    "agent_proposals",
    "agent_resolve_proposal",
    "agent_undo",
    "agent_shutdown",
)


def register_all(server: AgentLanguageServer) -> None:
    import importlib

    for name in MODULES:
        importlib.import_module(f"agentls.lsp.features.{name}").register(server)
