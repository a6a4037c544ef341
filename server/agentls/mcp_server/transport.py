"""Serving the MCP server over stdio or streamable HTTP, with the SDK's transports.

stdio: newline-delimited JSON-RPC on stdin and stdout until the client closes stdin; while
it serves, the SDK points fd 1 at stderr, so nothing but the protocol reaches stdout.
HTTP: the SDK's streamable-HTTP app (endpoint `/mcp`, DNS-rebinding protection for
loopback hosts) under uvicorn, on a socket bound to 127.0.0.1 only (port 0: any free
one); the address goes to stderr once it listens. Logs go to stderr in both.
Must not know: the tools, the workspace, the CLI's flags.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

HOST = "127.0.0.1"
PATH = "/mcp"

log = logging.getLogger(__name__)


def serve_stdio(server: Server[Any]) -> int:
    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
    return 0


def listen(port: int) -> socket.socket:
    """A TCP socket listening on 127.0.0.1:`port` (OSError if it cannot)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve_http(server: Server[Any], sock: socket.socket) -> int:
    """Serve on `sock` (from `listen`) until interrupted."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=PATH, host=HOST)
    # log_config=None: uvicorn logs through the root logger (stderr), never to stdout
    config = uvicorn.Config(app, log_config=None, access_log=False, log_level="warning", lifespan="on")
    host, port = sock.getsockname()[:2]
    print(f"agentls: MCP over streamable HTTP at http://{host}:{port}{PATH}", file=sys.stderr, flush=True)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
