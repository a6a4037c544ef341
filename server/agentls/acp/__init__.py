"""The agent over the Agent Client Protocol (DESIGN §10), a front end beside the LSP server.

- `agent.py` — `AgentlsAcp`: the SDK's Agent handlers (initialize, sessions, prompt,
  cancel, modes, the approval option).
- `session.py` — `AcpSession`: one §9 session's prompt turns, started with `start_run`.
- `updates.py` — a run's events as `session/update`s.
- `asking.py` — `session/request_permission` and the session's standing rules.
- `client_files.py` — reads and applied edits through the client's `fs/*` methods.
- `mcp_servers.py` — ACP's `mcpServers` as the `mcpServers` setting.
- `stdio.py` — serving it on stdin/stdout.
Must not know: pygls/lsprotocol, the CLI.
"""
