"""ACP's `mcpServers` (from `session/new` and `session/load`) in the `mcpServers` setting's
shape (DESIGN §10): `{name: {command, args, env} | {url, headers}}`, `env` and `headers`
turned from name/value lists into objects; the session's servers go over the configured
ones of the same name. Must not know: how the servers are run.
"""

from __future__ import annotations

import logging
from typing import Any

from agentls.settings import Settings, parse_settings

log = logging.getLogger(__name__)


def servers_setting(servers: list[Any]) -> dict[str, dict[str, Any]]:
    converted: dict[str, dict[str, Any]] = {}
    for server in servers:
        name = getattr(server, "name", None)
        if not isinstance(name, str) or not name:
            continue
        command = getattr(server, "command", None)
        if isinstance(command, str):
            entry: dict[str, Any] = {"command": command, "args": list(getattr(server, "args", None) or [])}
            env = {e.name: e.value for e in getattr(server, "env", None) or []}
            if env:
                entry["env"] = env
        elif isinstance(getattr(server, "url", None), str):
            entry = {"url": server.url}
            headers = {h.name: h.value for h in getattr(server, "headers", None) or []}
            if headers:
                entry["headers"] = headers
        else:
            continue
        converted[name] = entry
    return converted


def settings_with_servers(settings: Settings, servers: list[Any]) -> Settings:
    """`settings` with the session's MCP servers added (unchanged when there are none); a
    bad entry is logged and left out, the others kept."""
    converted = servers_setting(servers)
    if not converted:
        return settings
    raw = settings.model_dump(by_alias=True)
    raw["mcpServers"] = {**(raw.get("mcpServers") or {}), **converted}
    merged, problems = parse_settings(raw)
    for problem in problems:
        log.warning("session/new mcpServers: %s", problem)
    return merged
