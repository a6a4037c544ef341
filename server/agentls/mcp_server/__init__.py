"""`agentls mcp`: the registry's tools as an MCP server, with the official `mcp` SDK
(DESIGN §10), a front end beside the LSP server.

- `server.py` — `WorkspaceTools`: the SDK's low-level `Server` built from a `Workbench`;
  `tools/list` and `tools/call`, every call through `Workbench.call` (the executor).
- `catalog.py` — which tools the mode offers, with their own schemas.
- `results.py` — a call's outcome as a `CallToolResult` (JSON text, structured content,
  `isError` with the structured error).
- `freshness.py` — the index picks up files the client changed on disk.
- `transport.py` — stdio, or streamable HTTP on 127.0.0.1.

Nothing imports this package but the CLI. Must not know: LSP, ACP, the agent loop.
"""
