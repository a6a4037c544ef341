"""The settings' `mcpServers` (DESIGN §10): each entry a stdio command or a URL with the
permission flags its tools need; a bad entry is reported and left out, the others kept."""

from __future__ import annotations

from typing import Any

import pytest

from agentls.settings import MCP_DEFAULT_PERMISSIONS, Settings, parse_settings


def test_entries_of_both_shapes_with_their_defaults() -> None:
    settings, problems = parse_settings(
        {
            "mode": "full",
            "mcpServers": {
                "filesystem": {
                    "command": "npx",
                    "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
                    "env": {"A": "1"},
                    "cwd": "sub",
                },
                "remote_1": {
                    "url": "https://mcp.example.com/mcp",
                    "headers": {"Authorization": "Bearer t"},
                    "permissions": ["network"],
                },
                "old-sse": {"url": "http://127.0.0.1:8080/sse", "type": "sse", "disabled": False},
            },
        }
    )
    assert problems == []
    fs, remote, sse = (settings.mcp_servers[n] for n in ("filesystem", "remote_1", "old-sse"))
    assert (fs.command, fs.args, fs.env, fs.cwd) == (
        "npx",
        ("-y", "@modelcontextprotocol/server-filesystem", "."),
        {"A": "1"},
        "sub",
    )
    assert fs.permissions == MCP_DEFAULT_PERMISSIONS == ("shellExecution", "network")
    assert (remote.url, remote.headers, remote.permissions) == (
        "https://mcp.example.com/mcp",
        {"Authorization": "Bearer t"},
        ("network",),
    )
    assert sse.type == "sse"
    assert "Bearer" not in repr(settings)  # headers and env may hold secrets
    assert Settings().mcp_servers == {}


BAD: list[tuple[str, Any, str]] = [
    ("bad name", {"command": "x"}, "String should match pattern"),
    ("both", {"command": "x", "url": "http://a/mcp"}, "either `command` (stdio) or `url` (HTTP)"),
    ("neither", {"args": ["x"]}, "either `command` (stdio) or `url` (HTTP)"),
    ("flag", {"command": "x", "permissions": ["root"]}, "Input should be 'filesystemRead'"),
    ("scheme", {"url": "file:///etc/passwd"}, "String should match pattern"),
    ("mixed", {"url": "http://a/mcp", "cwd": "x"}, "go with `command`"),
    ("env", {"command": "x", "env": {"A": 1}}, "Input should be a valid string"),
]


@pytest.mark.parametrize(("name", "entry", "why"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_entry_is_reported_and_left_out_and_the_rest_kept(
    name: str, entry: Any, why: str
) -> None:
    settings, problems = parse_settings(
        {"mode": "ci", "mcpServers": {name: entry, "good": {"command": "ok"}}}
    )
    assert list(settings.mcp_servers) == ["good"] and settings.mode == "ci"
    (problem,) = problems
    assert problem.startswith(f"MCP server {name!r} (mcpServers.") and why in problem
    assert problem.endswith("that server is left out")


def test_a_value_that_is_not_an_object_falls_back_to_no_servers() -> None:
    settings, problems = parse_settings({"mcpServers": [{"command": "x"}]})
    assert settings.mcp_servers == {} and len(problems) == 1 and "mcpServers" in problems[0]
