"""`agentls mcp --http PORT`: streamable HTTP on 127.0.0.1 only, driven by the official
Python SDK's streamable-HTTP client; the same catalog and calls as on stdio."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.mcp.harness import free_port, http_session, listening, running, text, workspace

LOOPBACK = "0100007F"  # 127.0.0.1 as /proc/net/tcp writes it


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return workspace(tmp_path)


async def test_http_listens_on_loopback_only_and_serves_the_tools(root: Path) -> None:
    port = free_port()
    with running(root, "--http", str(port)) as server:
        url = server.wait_stderr(r"(http://\S+/mcp)").group(1)
        assert url == f"http://127.0.0.1:{port}/mcp"
        assert listening(port) == [LOOPBACK], "bound to 127.0.0.1 alone, not 0.0.0.0 or ::"
        async with http_session(url) as session:
            names = {t.name for t in (await session.list_tools()).tools}
            found = await session.call_tool("find_symbol_definition", {
                "symbol": "unit_circle", "path": "pkg/main.py", "line": 4, "character": 44})  # fmt: skip
            refused = await session.call_tool("read_file", {"path": "../outside.txt"})
        assert "find_references" in names and "edit_file" not in names
        assert [(loc["path"], loc["line"]) for loc in found.structured_content["locations"]] == [("pkg/shapes.py", 11)]
        assert refused.is_error and text(refused)["type"] == "permission"
        # DNS rebinding: a page on another origin cannot drive the server
        request = urllib.request.Request(url, data=b"{}", method="POST", headers={
            "Host": "attacker.example", "Content-Type": "application/json"})  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as rebound:
            urllib.request.urlopen(request, timeout=10)
        assert rebound.value.code in (400, 403, 421)
        assert server.proc.poll() is None


def test_a_port_in_use_is_a_clear_error(root: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with running(root, "--http", str(port)) as server:
            assert server.proc.wait(timeout=30) == 1
            server.wait_stderr(rf"cannot listen on 127\.0\.0\.1:{port}")
