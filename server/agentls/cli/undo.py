"""`agentls undo RUN_ID [--workspace DIR] [--approve ask|auto|never]` (DESIGN §7, §4).

The run's applied edits, read from its trace (`.agentls/runs/<runId>.json`, written by
`agentls run` and by the server), come back as one proposal: shown as a diff on stderr
and, with `ask` on a terminal, reviewed like a run's (all, hunk by hunk, or not at all);
`auto` applies it, `never` only shows it. Files changed since the run touched them are
skipped with the reason. Stdout: one JSON object `{proposalId, files, skipped, status}`
(status: applied | rejected | stale | pending | nothing). Exit 0 when the undo was
applied, shown (`never`) or there was nothing to undo; 1 when rejected or stale; 2 for an
unknown run or a bad workspace. Must not know: LSP, the agent loop.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from agentls.cli import Subcommand, helptext

APPROVALS = helptext.APPROVAL_CHOICES


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_id", metavar="RUN_ID", help="the run to undo (its runId)")
    parser.add_argument("--workspace", default=".", help="the workspace root (default: the current folder)")
    parser.add_argument("--approve", choices=APPROVALS, default=None, help="the undo: ask (default), auto (apply), never (only show)")
    helptext.explain(parser, helptext.approvals(
        default="ask",
        ask="the undo is shown as a diff and asked about on the terminal (all, hunk by hunk, or "
            "not at all); with no terminal it is only shown",
        auto="the undo is applied at once",
        never="the undo is only shown",
    ), helptext.exit_codes([
        ("0", "the undo was applied, shown (never, or ask with no terminal), or the run left "
              "nothing to undo"),
        ("1", "the undo was rejected, or went stale (a file changed while it was shown)"),
        ("2", "bad usage: an unknown run, a workspace that is not a folder, an unknown flag or "
              "value"),
    ]))  # fmt: skip


def _undo(args: argparse.Namespace) -> int:
    from agentls.cli.review import proposal_listener
    from agentls.cli.run import _Progress
    from agentls.settings import Settings
    from agentls.tools.proposals import ProposalStore
    from agentls.tools.undo import UndoError, undo_run
    from agentls.workspace import Workspace

    if not os.path.isdir(args.workspace):
        print(f"agentls: workspace {args.workspace!r} is not a directory", file=sys.stderr)
        return 2
    approve = args.approve or Settings().approval
    interactive = approve == "ask" and sys.stdin.isatty()
    if approve == "ask" and not interactive:
        print("agentls: no terminal to ask on: the undo is only shown (use --approve auto to apply)", file=sys.stderr)
    progress = _Progress()
    store = ProposalStore(Workspace(args.workspace))
    store.add_listener(proposal_listener(progress, store, interactive))
    try:
        plan = undo_run(store, args.run_id)
    except UndoError as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    for skipped in plan.skipped:
        progress.line(f"  skipped {skipped['path']}: {skipped['reason']}")
    proposal = plan.proposal
    if proposal is None:
        progress.line(f"agentls: run {args.run_id} left nothing to undo")
    elif approve == "auto" and proposal.status == "pending":
        store.resolve(proposal.id, "accepted")
    status = proposal.status if proposal is not None else "nothing"
    sys.stdout.write(json.dumps({**plan.to_dict(), "status": status}, ensure_ascii=False) + "\n")
    return 0 if status in ("applied", "pending", "nothing") else 1


SUBCOMMANDS = [Subcommand("undo", "undo the edits a run applied (as one reviewed change)", _add, _undo)]
