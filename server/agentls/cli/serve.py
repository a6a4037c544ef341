"""`agentls serve`: the language server on stdio, or on TCP with `--tcp --port N`."""

from __future__ import annotations

import argparse
import logging

from agentls.cli import Subcommand, helptext


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    helptext.explain(parser, helptext.section("how an editor uses it:", [
        ("start", "`agentls serve`: LSP messages on stdin and stdout, logs on stderr"),
        ("settings", "the client's initializationOptions and workspace/configuration "
                     "(section agentls): the object `agentls run --settings` takes"),
    ]), helptext.exit_codes([
        ("0", "the client sent shutdown, then exit"),
        ("1", "the client sent exit without shutdown (as LSP asks)"),
        ("2", "bad usage: an unknown flag or value"),
    ]))  # fmt: skip


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
