"""The audit log: one JSON line per tool call in `<root>/.agentls/audit.jsonl`.

Each line holds the tool, its input with secrets redacted, the duration, the output size,
the error and the permission decision (with the auto-approve rules that decided, if any). Redaction: values under keys that look secret
(`*key*`, `*token*`, `*secret*`, `*password*`, any case) are replaced, and so is any
occurrence of the value of an environment variable whose name looks secret. Writing is
thread-safe and never raises into the caller: a failing write is logged.
Must not know: any particular tool, the agent, LSP.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentls.workspace.durable import state_folder

log = logging.getLogger(__name__)

REDACTED = "***"
SECRET_NAME = re.compile(r"key|token|secret|password", re.IGNORECASE)
#: Environment values shorter than this are not treated as secrets (too many false hits).
MIN_SECRET_LEN = 6
#: Longer strings (a whole file's content) are cut in the log.
MAX_LOGGED_CHARS = 2000


def env_secrets(environ: dict[str, str] | os._Environ[str] | None = None) -> list[str]:
    """Values of environment variables whose names look secret, longest first."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if SECRET_NAME.search(k) and len(v) >= MIN_SECRET_LEN}
    return sorted(values, key=len, reverse=True)


def keyed_secrets(value: Any) -> list[str]:
    """String values found under secret-looking keys (so they are redacted everywhere)."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and SECRET_NAME.search(k) and isinstance(v, str) and len(v) >= 4:
                found.append(v)
            else:
                found.extend(keyed_secrets(v))
    elif isinstance(value, list | tuple):
        for v in value:
            found.extend(keyed_secrets(v))
    return found


def redact(value: Any, secrets: list[str]) -> Any:
    """A copy of a JSON-like value with secret keys and secret values replaced."""
    if isinstance(value, dict):
        return {
            k: REDACTED if isinstance(k, str) and SECRET_NAME.search(k) else redact(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(v, secrets) for v in value]
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        if len(value) > MAX_LOGGED_CHARS:
            value = f"{value[:MAX_LOGGED_CHARS]}... ({len(value)} characters)"
        return value
    if value is None or isinstance(value, bool | int | float):
        return value
    return redact(str(value), secrets)


class AuditLog:
    """Appends audit records to a JSON-lines file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._warned = False

    @classmethod
    def for_workspace(cls, root: str | os.PathLike[str]) -> AuditLog:
        return cls(Path(root) / ".agentls" / "audit.jsonl")

    def record(
        self,
        *,
        tool: str,
        input: Any,
        duration_ms: float,
        output_bytes: int,
        error: dict[str, Any] | None,
        decision: str,
        missing: list[str] | None = None,
        mode: str | None = None,
        run_id: str | None = None,
        auto_approved: list[str] | None = None,
    ) -> None:
        """Write one record. `decision` is allowed | auto-approved (the user's auto-approve
        rules let the call or its proposals go ahead unasked; `autoApproved` names them) |
        denied (the permissions) | refused (the gate: the user) | not_checked."""
        try:
            secrets = sorted({*env_secrets(), *keyed_secrets(input)}, key=len, reverse=True)
            permission: dict[str, Any] = {"decision": decision, "missing": missing or [], "mode": mode}
            if auto_approved:
                permission["autoApproved"] = list(auto_approved)
            entry = {
                "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "run_id": run_id,
                "tool": tool,
                "input": redact(input, secrets),
                "duration_ms": round(duration_ms, 3),
                "output_bytes": output_bytes,
                "ok": error is None,
                "error": redact(error, secrets) if error is not None else None,
                "permission": permission,
            }
            line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
            with self._lock:
                state_folder(self.path.parent)
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(line)
        except Exception as exc:  # the audit log must never break a tool call
            if not self._warned:
                log.warning("could not write the audit log %s: %s", self.path, exc)
                self._warned = True
            else:
                log.debug("could not write the audit log %s: %s", self.path, exc)
