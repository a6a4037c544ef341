"""Asking the ACP client for permission (`session/request_permission`), with the session's
standing rules.

Every request offers `allow_once`, `allow_always`, `reject_once` and `reject_always`; an
`always` answer holds for that tool for the rest of the session (later calls of it are not
asked), and the `cancelled` outcome (pending requests at `session/cancel`) counts as a
rejection. A request that fails (the client errs or goes away) is a rejection with its
reason: nothing runs or is applied without a yes.
Must not know: runs, proposals, what is being asked about.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from acp.schema import PermissionOption, ToolCallUpdate

log = logging.getLogger(__name__)

OPTIONS = [
    PermissionOption(option_id="allow_once", name="Allow", kind="allow_once"),
    PermissionOption(option_id="allow_always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject_once", name="Reject", kind="reject_once"),
    PermissionOption(option_id="reject_always", name="Always reject", kind="reject_always"),
]


USER_REJECTED = "rejected by the user in the editor"


@dataclass(frozen=True, slots=True)
class Answer:
    allowed: bool
    why: str  # for the model and the step's content: who decided, and how
    failed: bool = False  # no one decided: the request itself failed


class Asking:
    def __init__(self, conn: Any, session_id: str) -> None:
        self.conn = conn
        self.session_id = session_id
        self.rules: dict[str, bool] = {}  # tool name → allowed, from an `always` answer

    async def ask(self, tool: str, tool_call: ToolCallUpdate) -> Answer:
        rule = self.rules.get(tool)
        if rule is not None:
            said = "allowed" if rule else "rejected"
            return Answer(rule, f"{said} by the user's standing rule for {tool} in this session")
        try:
            reply = await self.conn.request_permission(
                session_id=self.session_id, tool_call=tool_call, options=OPTIONS
            )
        except Exception as exc:
            log.warning("session/request_permission failed: %s", exc)
            return Answer(False, f"rejected: the permission request failed ({exc})", failed=True)
        outcome = reply.outcome
        if getattr(outcome, "outcome", None) != "selected":
            return Answer(False, "rejected: the request was cancelled")
        choice = getattr(outcome, "option_id", None)
        if choice == "allow_always":
            self.rules[tool] = True
        elif choice == "reject_always":
            self.rules[tool] = False
        if choice in ("allow_once", "allow_always"):
            return Answer(True, "allowed by the user")
        if choice in ("reject_once", "reject_always"):
            return Answer(False, USER_REJECTED)
        return Answer(False, f"rejected: the client chose an unknown option {choice!r}")
