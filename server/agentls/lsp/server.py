"""The agentls language server, made: `create_server()` is the `AgentLanguageServer`
(language_server.py) with every feature of features/ registered. The one module that
imports the features; they import the server's class below it, never this module.
Must not know: what a feature does.
"""

from __future__ import annotations

from agentls.lsp.features import register_all
from agentls.lsp.language_server import AgentLanguageServer, Project

__all__ = ["AgentLanguageServer", "Project", "create_server"]


def create_server() -> AgentLanguageServer:
    server = AgentLanguageServer()
    register_all(server)
    return server
