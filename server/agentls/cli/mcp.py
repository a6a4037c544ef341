"""`agentls mcp`: the tools as an MCP server, on stdio or streamable HTTP (DESIGN §7, §10).

The mode defaults to `read-only` (the code-analysis and read tools), unless `--mode` or a
`mode` in `--settings` says otherwise. The approval is the one rule's with nobody to ask
(`approval_for(..., interactive=False)`): `auto` applies edits in dev and full, `ask` and
`never` only propose. The index is built once, in the background; calls wait for it.
Must not know: the MCP SDK, the tools.
"""

from __future__ import annotations

import argparse
import os
import sys

from agentls.cli import Subcommand, helptext
from agentls.cli.settings_option import SettingsError, add_settings_argument, load_settings

DEFAULT_MODE = "read-only"


def _port(value: str) -> int:
    port = int(value)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (0-65535)")
    return port


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", default=".", help="workspace root (default: .)")
    parser.add_argument("--mode", choices=helptext.MODE_CHOICES, default=None,
                        help=f"permission mode: which tools are offered (below; default: settings, {DEFAULT_MODE})")
    parser.add_argument("--approve", choices=helptext.APPROVAL_CHOICES, default=None,
                        help="what to do with proposed edits (below; default: settings, ask)")
    parser.add_argument("--http", type=_port, default=None, metavar="PORT",
                        help="serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: any free port)")
    add_settings_argument(parser)
    helptext.explain(parser, helptext.modes(f"the settings' mode, else {DEFAULT_MODE}"), helptext.approvals(
        ask="there is no one to ask over MCP: as never, the edit is proposed and left pending; "
            "the result says nothing was written",
        auto="each proposed edit is applied at once; only in modes dev and full (in the "
             "others: as never)",
        never="the call returns the proposal (its id and diff); nothing is written",
    ), helptext.section("how an MCP client uses it:", [
        ("stdio", "`agentls mcp --workspace DIR`: MCP (JSON-RPC, one message a line) on stdin "
                  "and stdout, logs on stderr"),
        ("HTTP", "`agentls mcp --http 8765`: http://127.0.0.1:8765/mcp (streamable HTTP, loopback only)"),
        ("Claude Code", "claude mcp add agentls -- agentls mcp --workspace /path/to/project"),
    ]), helptext.exit_codes([
        ("0", "the client closed the connection (stdio) or the server was stopped (HTTP)"),
        ("1", "the HTTP port could not be bound"),
        ("2", "bad usage: an unknown flag or value, bad --settings, --workspace not a folder"),
    ]))  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.settings)
    except SettingsError as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    if not os.path.isdir(args.workspace):
        print(f"agentls: --workspace {args.workspace!r} is not a directory", file=sys.stderr)
        return 2
    mode = args.mode or (settings.mode if "mode" in settings.model_fields_set else DEFAULT_MODE)

    from agentls.agent.launch import Workbench
    from agentls.mcp_server import transport
    from agentls.mcp_server.server import WorkspaceTools
    from agentls.tools.permissions import approval_for

    grant = approval_for(mode, args.approve or settings.approval, interactive=False)
    explicit = args.approve is not None or "approval" in settings.model_fields_set
    if grant.changed and explicit:  # the default `ask` proposing only is what the help says
        print(f"agentls: approval {grant.asked!r} becomes {grant.approval!r}: {'; '.join(grant.reasons)}", file=sys.stderr)
    sock = None
    if args.http is not None:
        try:
            sock = transport.listen(args.http)
        except OSError as exc:
            print(f"agentls: cannot listen on {transport.HOST}:{args.http}: {exc.strerror or exc}", file=sys.stderr)
            return 1
    bench = Workbench.indexed(args.workspace, settings)
    server = WorkspaceTools(bench, settings, mode, grant).server()
    return transport.serve_stdio(server) if sock is None else transport.serve_http(server, sock)


SUBCOMMANDS = [Subcommand("mcp", "the tools as an MCP server (stdio, or streamable HTTP on 127.0.0.1)", _add, _run)]
