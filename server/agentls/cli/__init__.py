"""The `agentls` command line: a thin argparse front over the subcommand modules.

Each module named in `SUBCOMMAND_MODULES` exports `SUBCOMMANDS`, a list of `Subcommand`
(name, help, a function adding its arguments, a function running it and returning the
exit code). Adding a command means adding a module and naming it here; `main` knows no
command. Subcommand modules import heavy layers (tools, analysis, LSP) inside their run
functions, so start-up stays fast. Must not know: any particular command.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentls import __version__

#: Modules that export SUBCOMMANDS, in help order.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "agentls.cli.serve",
    "agentls.cli.run",
    "agentls.cli.tools",
    "agentls.cli.undo",
    "agentls.cli.acp",
    "agentls.cli.mcp",
)


@dataclass(frozen=True, slots=True)
class Subcommand:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def subcommands() -> list[Subcommand]:
    found: list[Subcommand] = []
    for module_name in SUBCOMMAND_MODULES:
        found.extend(importlib.import_module(module_name).SUBCOMMANDS)
    return found


def build_parser(commands: Sequence[Subcommand] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentls", description="An autonomous software engineer inside a language server."
    )
    parser.add_argument("--version", action="version", version=f"agentls {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in commands if commands is not None else subcommands():
        child = sub.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(child)
        child.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="agentls: %(levelname)s %(message)s")
    try:
        return int(args.run(args))
    except BrokenPipeError:  # `agentls tools | head`: the reader left; not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("agentls: interrupted", file=sys.stderr)
        return 130
