"""The run's pending proposals as an overlay for the sandbox: relative path → new bytes.

Tests run against a change before anyone approves it: the sandbox applies this overlay
to a scratch copy of the workspace. Read defensively (duck-typed): a proposal has `.path`,
`.status` and `.new_content` (bytes or str); later proposals for a path win.
Must not know: how proposals are stored or resolved, processes.
"""

from __future__ import annotations

from agentls.tools.base import ToolContext
from agentls.workspace import PathOutsideWorkspace


def pending_overlay(ctx: ToolContext) -> dict[str, bytes]:
    """{relative path: content} of this run's pending proposals ({} when there are none)."""
    lister = getattr(ctx.proposals, "list", None)
    if ctx.run_id is None or not callable(lister):
        return {}
    overlay: dict[str, bytes] = {}
    for proposal in lister(ctx.run_id):
        status = getattr(proposal, "status", None)
        if getattr(status, "value", status) != "pending":
            continue
        if getattr(proposal, "run_id", ctx.run_id) != ctx.run_id:
            continue
        content = getattr(proposal, "new_content", None)
        if isinstance(content, str):
            content = content.encode("utf-8")
        if not isinstance(content, bytes):
            continue
        try:
            rel = ctx.workspace.relative(str(getattr(proposal, "path", "")))
        except PathOutsideWorkspace:
            continue
        overlay[rel] = content
    return overlay
