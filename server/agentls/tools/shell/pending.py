"""The run's pending proposals as an overlay for the sandbox: relative path → new bytes
(None: the proposal deletes the file).

Shell commands run against a change before anyone approves it: the sandbox applies this
overlay to a scratch copy of the workspace. Read defensively (duck-typed): a proposal has
`.status`, `.run_id` and `.changes` (each with `.path` and `.new`, bytes or None); later
proposals for a path win. Must not know: how proposals are stored or resolved, processes.
"""

from __future__ import annotations

from agentls.tools.base import ToolContext
from agentls.workspace import PathOutsideWorkspace


def pending_overlay(ctx: ToolContext) -> dict[str, bytes | None]:
    """{relative path: content or None} of this run's pending proposals ({} when none)."""
    lister = getattr(ctx.proposals, "list", None)
    if ctx.run_id is None or not callable(lister):
        return {}
    overlay: dict[str, bytes | None] = {}
    for proposal in lister(ctx.run_id):
        status = getattr(proposal, "status", None)
        if getattr(status, "value", status) != "pending":
            continue
        if getattr(proposal, "run_id", ctx.run_id) != ctx.run_id:
            continue
        for change in getattr(proposal, "changes", None) or ():
            content = getattr(change, "new", None)
            if isinstance(content, str):
                content = content.encode("utf-8")
            if content is not None and not isinstance(content, bytes):
                continue
            try:
                rel = ctx.workspace.relative(str(getattr(change, "path", "")))
            except PathOutsideWorkspace:
                continue
            overlay[rel] = content
    return overlay
