"""A run's events as ACP `session/update`s (DESIGN §10's mapping onto the v1 schema).

- `task` events → the whole `plan` each time (entries of priority `medium`; a failed or
  skipped task is `completed` with its outcome in the text).
- `tool_call` → `tool_call` (`in_progress`) with its kind, title and locations (absolute
  paths); `tool_result` → `tool_call_update` `completed` or `failed` (the error in the
  content). `finish` is no tool call.
- a proposal → `tool_call_update` with its `diff` content `{path, oldText, newText}`.
- `stream` (a streaming model's text as it comes) → `agent_thought_chunk`.
- the end → the last `agent_message_chunk` (the summary; "Failed: …" first when the run
  failed; verified or unverified said), `usage_update`, and the stop reason.
Tool kinds: read/list tools → `read`; search and code-analysis tools → `search`;
file-writing tools → `edit`; shell → `execute`; web → `fetch`; MCP and the rest → `other`.
Must not know: the connection, sessions, how permission is asked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    StopReason,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolKind,
    UsageUpdate,
)

from acp import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    update_agent_message,
    update_plan,
    update_tool_call,
)
from agentls.tools.permissions import Permission
from agentls.tools.proposals import Proposal
from agentls.tools.registry import ToolRegistry

READ_TOOLS = frozenset({"read_file", "list_directory"})
#: How a run's end status becomes the prompt's stop reason.
STOP_REASONS: dict[str, StopReason] = {
    "completed": "end_turn",
    "failed": "end_turn",
    "budget_exhausted": "max_turn_requests",
    "cancelled": "cancelled",
}
RESULT_CHARS = 2000
PATH_KEYS = ("path", "file", "target", "source", "destination")


def tool_kind(name: str, registry: ToolRegistry) -> ToolKind:
    tool = registry.get(name)
    if tool is None:
        return "other"
    category = tool.category
    if category == "shell":
        return "execute"
    if category == "web":
        return "fetch"
    if category == "mcp":
        return "other"
    if Permission.FILESYSTEM_WRITE in tool.permissions:
        return "edit"
    if name in READ_TOOLS:
        return "read"
    if category in ("filesystem", "code", "knowledge", "git"):
        return "search"
    return "other"


def locations(arguments: dict[str, Any], root: Path) -> list[ToolCallLocation]:
    """The files a call names (absolute paths), with a 1-based line where it gives one."""
    found: list[ToolCallLocation] = []
    line = arguments.get("line")
    for key in PATH_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value and "\x00" not in value:
            path = Path(value) if Path(value).is_absolute() else root / value
            at = line + 1 if isinstance(line, int) and not isinstance(line, bool) and line >= 0 else None
            found.append(ToolCallLocation(path=str(path), line=at))
    return found


def call_title(name: str, arguments: dict[str, Any]) -> str:
    shown = ", ".join(
        f"{k}={json.dumps(v, ensure_ascii=False)[:60]}" for k, v in list(arguments.items())[:3]
    )
    return f"{name}({shown})"


def tool_started(
    data: dict[str, Any], registry: ToolRegistry, root: Path, auto_approved: str | None = None
) -> ToolCallStart:
    """A step begins; `auto_approved`: the rule that lets it run without asking, said in it."""
    given = data.get("arguments")
    arguments: dict[str, Any] = given if isinstance(given, dict) else {}
    name = str(data.get("name"))
    said = [tool_content(text_block(f"Auto-approved by {auto_approved}"))] if auto_approved else None
    return start_tool_call(
        str(data.get("id")),
        call_title(name, arguments),
        kind=tool_kind(name, registry),
        status="in_progress",
        content=said,
        locations=locations(arguments, root),
        raw_input=arguments,
    )


def tool_ended(data: dict[str, Any]) -> ToolCallProgress:
    ok = bool(data.get("ok", True))
    if ok:
        body = data.get("output")
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    else:
        error = data.get("error") or {}
        text = error.get("message", "") if isinstance(error, dict) else str(error)
    if len(text) > RESULT_CHARS:
        text = text[:RESULT_CHARS] + "…"
    return update_tool_call(
        str(data.get("id")),
        status="completed" if ok else "failed",
        content=[tool_content(text_block(text))] if text else None,
        raw_output=data.get("output") if ok else data.get("error"),
    )


def proposal_diff(tool_call_id: str, proposal: Proposal, root: Path) -> ToolCallProgress:
    """The proposal's files as `diff` content of the step that made it."""
    content = [
        tool_diff_content(
            str(root / change.path),
            (change.new or b"").decode("utf-8", "replace"),
            None if change.old is None else change.old.decode("utf-8", "replace"),
        )
        for change in proposal.changes
    ]
    where = [ToolCallLocation(path=str(root / change.path)) for change in proposal.changes]
    return update_tool_call(tool_call_id, content=content, locations=where)


def proposal_decided(tool_call_id: str, proposal: dict[str, Any]) -> ToolCallProgress:
    """A decided proposal: a rejected, stale or failed one fails its step, with the reason."""
    status = proposal.get("status")
    if status in ("rejected", "stale", "failed"):
        why = proposal.get("comment") or proposal.get("note") or ""
        text = f"{proposal.get('title')}: {status}" + (f" ({why})" if why else "")
        return update_tool_call(tool_call_id, status="failed", content=[tool_content(text_block(text))])
    if proposal.get("autoApproved"):
        said = f"{proposal.get('title')}: applied, auto-approved by {proposal['autoApproved']}"
        return update_tool_call(tool_call_id, status="completed", content=[tool_content(text_block(said))])
    return update_tool_call(tool_call_id, status="completed")


def plan(tasks: list[dict[str, Any]]) -> AgentPlanUpdate:
    entries = []
    for task in tasks:
        status = task.get("status")
        title = str(task.get("title", ""))
        if status in ("failed", "skipped"):
            entries.append(plan_entry(f"{title} ({status})", status="completed"))
        else:
            mapped = {"running": "in_progress", "done": "completed"}.get(str(status), "pending")
            entries.append(plan_entry(title, status=mapped))  # type: ignore[arg-type]
    return update_plan(entries)


def final_message(result: dict[str, Any]) -> AgentMessageChunk:
    """The run's report: its summary, "Failed: <reason>" first when it failed, and whether a
    check verified it (DESIGN §9)."""
    status = result.get("status")
    summary = str(result.get("summary") or "").strip()
    lines: list[str] = []
    if status == "failed":
        lines.append(f"Failed: {result.get('error') or 'the run failed'}")
    elif status not in ("completed", None):
        lines.append(f"{str(status).replace('_', ' ').capitalize()}: {result.get('error') or ''}".rstrip(": "))
    if summary:
        lines.append(summary)
    verification = result.get("verification") or {}
    if status == "completed":
        verified = verification.get("verified")
        if verified:
            lines.append("(verified)")
        else:
            why = verification.get("unverified") or "no check could run"
            lines.append(f"(unverified: {why})")
    return update_agent_message(text_block("\n".join(lines) or str(status)))


def usage(result: dict[str, Any]) -> UsageUpdate | None:
    counted = result.get("usage") or {}
    size = int(counted.get("contextWindow") or 0)
    used = int(counted.get("contextUsed") or 0)
    if size <= 0:
        return None
    return UsageUpdate(session_update="usage_update", used=min(used, size), size=size)
