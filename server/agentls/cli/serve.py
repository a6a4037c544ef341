"""`agentls serve`: the language server on stdio, or on TCP with `--tcp --port N`."""

from __future__ import annotations

import argparse
import logging

from agentls.cli import Subcommand


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")


def _run(args: argparse.Namespace) -> int:
    from agentls.lsp.server import create_server

    logging.getLogger("pygls").setLevel(logging.WARNING)
    server = create_server()
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return server.exit_code  # 1 when the client sent `exit` without `shutdown` (LSP)


SUBCOMMANDS = [Subcommand("serve", "run the language server (stdio by default)", _add, _run)]
