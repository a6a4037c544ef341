"""A small MCP server written with the official SDK's MCPServer, run by the tests as a
subprocess: `python pyserver.py` (stdio) or `python pyserver.py http PORT` (streamable
HTTP on 127.0.0.1). Each call of `add` is appended to the file $CALL_LOG when it is set,
so a test can tell whether the server was called at all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

app = MCPServer("pyserver")


@app.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    log = os.environ.get("CALL_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"add {a} {b}\n")
    return a + b


@app.tool()
def refuse(why: str) -> str:
    """Fail on purpose: the result has isError true."""
    raise ToolError(f"refused: {why}")


@app.tool()
def die() -> str:
    """Kill this server's own process in the middle of the call."""
    os.kill(os.getpid(), signal.SIGKILL)
    return "never"


@app.tool()
def slow(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return "slept"


@app.tool()
def pid() -> int:
    """This server's process id."""
    return os.getpid()


@app.tool()
def spawn_child() -> int:
    """Start a long-lived child process in this server's process group; its pid."""
    return subprocess.Popen(["sleep", "300"]).pid


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
