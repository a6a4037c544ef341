"""MCP servers as tools (DESIGN §10, the `mcpServers` setting): the client side of MCP.

- `provider.py` — `McpProvider`: the servers of one workspace, a source of tools for its
  registry (listed as `mcp__<server>__<tool>`), started on first use, stopped by `close()`.
- `connection.py` — one server's session (the official SDK's `Client`) in an owner task on
  the provider's loop (`loop.py`): start, calls, crash, stop.
- `transport.py` — stdio, streamable HTTP or SSE from an entry; the server's stderr tail.
- `tool.py` — an MCP tool as a `Tool` (schema checks, permissions from the entry), and the
  disabled entry of a server whose tools are absent.
- `result.py` — a `CallToolResult` as the tool's output, or a structured error.

This is not a category of `default_registry` (its tools come from settings): the
workbench adds the provider to its registry. Must not know: the agent, any front end.
"""

from agentls.tools.mcp.provider import McpProvider

__all__ = ["McpProvider"]
