"""What flows through the acting step: a parsed tool call, the result of running it, the
failure passed to `ExecutionFailure`, and the `Finished` value the `finish` command returns.

`ActionResult.to_dict()` is the contract shape that goes back to the model as the tool
message: `{"ok": true, "output": ...}` or `{"ok": false, "error": {type, message, tool}}`
(`tools.base.result_dict`, as a tool call's `ToolResult`).
Must not know: the loop, tools' internals, models, LSP.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentls.tools.base import result_dict


@dataclass(slots=True)
class ParsedCall:
    """A well-formed tool call of one acting turn (arguments parsed and checked)."""

    id: str
    name: str
    arguments: dict[str, Any]
    thought: str | None = None  # the model's text beside the call

    def key(self) -> str:
        """The call's identity for repeat detection: name plus canonical arguments."""
        return self.name + json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)


@dataclass(slots=True)
class Finished:
    """Returned by the `finish` command: the current task is done with this summary."""

    summary: str


@dataclass(slots=True)
class ActionResult:
    """The outcome of running one call."""

    call: ParsedCall
    ok: bool
    output: Any = None
    error: dict[str, Any] | None = None  # {"type", "message", "tool"[, "details"]}
    duration_ms: float = 0.0
    finished: Finished | None = field(default=None)
    cause: BaseException | None = field(default=None, repr=False)  # what a command raised

    def to_dict(self) -> dict[str, Any]:
        return result_dict(self.ok, self.output, self.error, self.call.name)

    def message_text(self) -> str:
        """The tool message's content."""
        return json.dumps(self.to_dict(), ensure_ascii=False, default=str)


class ActionFailure(Exception):
    """A call that ran and failed; `ExecutionFailure` components receive it."""

    def __init__(self, result: ActionResult) -> None:
        err = result.error or {}
        super().__init__(
            f"{result.call.name}: {err.get('type', 'runtime')}: {err.get('message', '')}"
        )
        self.result = result
        self.cause = result.cause

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionFailure:
        return self  # the pipeline copies arguments; a failure is read-only evidence


def changed_file(result: ActionResult) -> str | None:
    """The path a successful call changed (its proposal applied or pending), else None."""
    out = result.output
    if not result.ok or not isinstance(out, dict) or "proposal_id" not in out:
        return None
    return str(out.get("path")) if out.get("status") in ("applied", "pending") else None
