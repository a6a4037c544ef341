"""`agentls tools` and `agentls tool NAME --input JSON`: list the tools and run one.

`tool` prints the contract result — `{"ok": true, "output": …}` or `{"ok": false, "error":
{type, message, tool}}` — as JSON on stdout and exits 0 only when ok. A proposal made by a
write tool is shown as a diff on stderr; it is applied only with `--approve auto` (in a
mode that allows writing); with `ask` on a terminal the user is asked y/n, without one it
is left pending. Both see the workspace's tools as a run does (`agent.launch.Workbench`):
the built-in ones and the tools of the `mcpServers` in `--settings`, whose servers are
started for the listing or the call and stopped before the command exits.
Must not know: LSP, the agent loop, any model.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from agentls.cli import Subcommand, helptext
from agentls.cli.settings_option import SettingsError, add_settings_argument, load_settings

if TYPE_CHECKING:
    from agentls.settings import Settings
    from agentls.tools.base import ToolContext

MODE_CHOICES = helptext.MODE_CHOICES
APPROVAL_CHOICES = helptext.APPROVAL_CHOICES
HEADER = ("TOOL", "CATEGORY", "NEEDS")
GAP = "  "


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _fail(tool: str, message: str) -> int:
    _emit({"ok": False, "error": {"type": "validation", "message": message, "tool": tool}})
    return 1


def _context(root: str, mode: str, approval: str, settings: Settings) -> ToolContext:
    from agentls.tools.base import ToolContext
    from agentls.tools.permissions import PermissionSet
    from agentls.tools.proposals import ProposalStore
    from agentls.tools.run_trace import new_run_id
    from agentls.workspace import Workspace

    workspace = Workspace(root)
    return ToolContext(
        workspace=workspace,
        permissions=PermissionSet.for_mode(mode),
        proposals=ProposalStore(workspace),
        run_id=new_run_id("cli"),
        approval=approval,  # type: ignore[arg-type]
        settings=settings,
        extra={"proposal_timeout_s": settings.proposal_timeout_s},
    )


# --- agentls tools -------------------------------------------------------------------
def _add_tools_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the agent/tools JSON")
    parser.add_argument("--workspace", default=".", help="workspace root (default: .)")
    parser.add_argument(
        "--mode", choices=MODE_CHOICES, default=None, help="mode to check (below; default: settings, dev)"
    )
    add_settings_argument(parser)
    helptext.explain(parser, helptext.modes(), helptext.exit_codes([
        ("0", "the tools were listed"),
        ("2", "bad usage: an unknown flag or value, bad --settings"),
    ]))  # fmt: skip


def _summary(description: str) -> str:
    """The description's first sentence, on one line."""
    text = " ".join(description.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def _table(schemas: list[dict[str, Any]], columns: int) -> list[str]:
    """One row per tool: name, category and needed permissions in aligned columns two
    spaces apart, then the description's first sentence wrapped to the terminal's width in
    its own column, and below it a disabled tool's reason."""
    rows = [(s["name"], s["category"], ", ".join(s["permissions"]) or "-") for s in schemas]
    widths = [max(len(row[i]) for row in [HEADER, *rows]) for i in range(len(HEADER))]
    indent = sum(widths) + len(GAP) * len(widths)
    room = max(columns - indent - 1, 30)
    lines = ["".join(cell.ljust(w) + GAP for cell, w in zip(HEADER, widths, strict=True)) + "DESCRIPTION"]
    for schema, cells in zip(schemas, rows, strict=True):
        text = textwrap.wrap(_summary(schema["description"] or ""), room, break_on_hyphens=False) or [""]
        if not schema["enabled"]:
            text += textwrap.wrap(f"disabled: {schema['disabledReason']}", room, break_on_hyphens=False)
        left = "".join(cell.ljust(w) + GAP for cell, w in zip(cells, widths, strict=True))
        lines.append((left + text[0]).rstrip())
        lines.extend(" " * indent + more for more in text[1:])
    return lines


def _run_tools(args: argparse.Namespace) -> int:
    from agentls.agent.launch import Workbench
    from agentls.tools.registry import default_registry
    from agentls.tools.sandbox import describe_sandbox

    try:
        settings = load_settings(args.settings)
    except SettingsError as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    mode = args.mode or settings.mode
    if os.path.isdir(args.workspace):
        ctx = _context(args.workspace, mode, "never", settings)
        bench = Workbench.open(ctx.workspace, settings=settings)
        try:
            schemas = bench.registry.schemas(ctx.permissions, ctx)
        finally:
            bench.close()
    else:
        schemas = default_registry().schemas(None, None)
    sandbox = describe_sandbox(settings.shell_sandbox)
    if args.json:
        _emit({"tools": schemas, "sandbox": sandbox})
        return 0
    print(f"mode {mode}; sandbox for shell tools: {sandbox}\n")
    columns = shutil.get_terminal_size((100, 24)).columns
    print("\n".join(_table(schemas, columns)))
    return 0


# --- agentls tool NAME ---------------------------------------------------------------
def _add_tool_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="tool name (see `agentls tools`)")
    parser.add_argument(
        "--input", default="{}", help="tool input as a JSON object ('-' reads stdin)"
    )
    parser.add_argument("--workspace", default=".", help="workspace root (default: .)")
    parser.add_argument(
        "--mode", choices=MODE_CHOICES, default=None, help="permission mode (below; default: settings, dev)"
    )
    parser.add_argument(
        "--approve",
        choices=APPROVAL_CHOICES,
        default=None,
        help="what to do with proposed edits (below; default: settings, ask)",
    )
    add_settings_argument(parser)
    ask = ("the proposed edit is shown as a diff on stderr and you are asked y/n on the "
           "terminal (a no takes a comment); with --input - or no terminal it stays pending "
           "and nothing is written")  # fmt: skip
    helptext.explain(parser, helptext.modes(), helptext.approvals(ask=ask), helptext.exit_codes([
        ("0", 'the tool\'s result is ok: {"ok": true, "output": …} on stdout'),
        ("1", 'the result is an error: {"ok": false, "error": {type, message, tool}} on stdout '
              "(the tool failed or was refused, or --input, --workspace or --settings is bad)"),
        ("2", "bad usage: an unknown flag or value"),
    ]))  # fmt: skip


def _ask(prompt: str) -> str:
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return sys.stdin.readline().strip()


def _proposal_listener(ctx: ToolContext, interactive: bool):  # noqa: ANN202 - a listener
    def listen(event: dict[str, Any]) -> None:
        proposal = event["proposal"]
        if event["action"] == "resolved":
            print(f"agentls: proposal {proposal['id']} {proposal['status']}", file=sys.stderr)
            return
        print(f"agentls: proposal {proposal['id']}: {proposal['title']}", file=sys.stderr)
        sys.stderr.write(proposal["diff"] or "(no textual change)\n")
        if not interactive:
            return
        if _ask("Apply this change? [y/N] ").lower() in ("y", "yes"):
            ctx.proposals.resolve(proposal["id"], "accepted")
        else:
            comment = _ask("Why not? (optional, Enter to skip) ") or None
            ctx.proposals.resolve(proposal["id"], "rejected", comment)

    return listen


def _run_tool(args: argparse.Namespace) -> int:
    try:
        raw = sys.stdin.read() if args.input == "-" else args.input
        payload = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(args.name, f"--input is not valid JSON: {exc}")
    if not isinstance(payload, dict):
        return _fail(args.name, f"--input must be a JSON object, got {type(payload).__name__}")
    if not os.path.isdir(args.workspace):
        return _fail(args.name, f"workspace {args.workspace!r} is not a directory")
    try:
        settings = load_settings(args.settings)
    except SettingsError as exc:
        return _fail(args.name, str(exc))
    args.mode = args.mode or settings.mode
    args.approve = args.approve or settings.approval

    from agentls.agent.launch import Workbench
    from agentls.tools.permissions import approval_for

    interactive = args.input != "-" and sys.stdin.isatty()
    approval = approval_for(args.mode, args.approve, interactive=interactive).approval
    ctx = _context(args.workspace, args.mode, approval, settings)
    ctx.proposals.add_listener(_proposal_listener(ctx, approval == "ask"))
    bench = Workbench.open(ctx.workspace, settings=settings)
    try:
        result = bench.executor.execute(args.name, payload, ctx)
    finally:
        bench.close()
    _emit(result.to_dict())
    pending = [p for p in ctx.proposals.list() if p.status == "pending"]
    if pending and args.approve == "ask" and approval == "never":
        print(
            f"agentls: {len(pending)} proposal(s) left pending: there is no terminal to ask on; "
            "nothing was written (use --approve auto to apply)",
            file=sys.stderr,
        )
    return 0 if result.ok else 1


SUBCOMMANDS = [
    Subcommand(
        "tools", "list the tools and whether a mode enables them", _add_tools_arguments, _run_tools
    ),
    Subcommand("tool", "run one tool and print its JSON result", _add_tool_arguments, _run_tool),
]
