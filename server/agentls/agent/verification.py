"""A run's verification (DESIGN §9): which independent checks ran, and what they say.

`verification: {verified: true | false | null, checks: [{kind, passed, detail, command?}],
unverified?}`. Check kinds: `tests` (the workspace's tests ran), `examples` (the
description's examples, run when no test calls what the goal changed), `parse` (the
changed files parse), `goal` (the done check: the change the goal asks for is there),
`answer` (an answer names what the files read hold). `verified` is
- false when any check failed (and the run is then not `completed`);
- true when the tests ran and passed — and call what the goal changed —, or a check
  specific to the goal passed (a value it asked for, a rename with no use left, a
  docstring, a new file that is not a test, an answer grounded in the files read; new
  tests count only once they ran);
- null when no such check could run: the reason says what was not checked (the mode may
  not run the tests; the workspace has none; only "a file changed" could be seen).
`suite_check` turns a `run_test_suite` result into a `tests` check with the failures in
compact form (the failing test, its assertion, the last frames inside the workspace).
Must not know: the loop, particular components, models, LSP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Failing tests shown in a check's detail (each in compact form).
SHOWN_FAILURES = 3
MAX_DETAIL_CHARS = 1600


@dataclass(slots=True)
class Check:
    kind: str  # tests | parse | goal | answer
    passed: bool
    detail: str
    command: str | None = None
    #: the check says more than "something changed" (see the module docstring)
    specific: bool = False
    summary: str = ""  # one line: "2 failed, 3 passed"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "passed": self.passed, "detail": self.detail}
        if self.command:
            out["command"] = self.command
        return out


@dataclass(slots=True)
class Verification:
    verified: bool | None
    checks: list[Check] = field(default_factory=list)
    unverified: str | None = None  # why verified is null

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verified": self.verified, "checks": [c.to_dict() for c in self.checks]}
        if self.unverified:
            out["unverified"] = self.unverified
        return out


def decide(checks: list[Check], why_not: str | None) -> Verification:
    """The verdict over the checks that ran (see the module docstring); `why_not` says what
    could not be checked, for a null verdict."""
    if any(not c.passed for c in checks):
        return Verification(False, checks)
    if any(c.specific for c in checks):
        return Verification(True, checks)
    return Verification(None, checks, why_not or "no check could confirm the result")


def suite_check(result: Any) -> Check | None:
    """A `run_test_suite` ToolResult as a `tests` check; None when the suite could not run
    (no runner detected, no sandbox) or ran nothing."""
    if result is None or not getattr(result, "ok", False):
        return None
    out = result.output or {}
    passed, failed, errors = out.get("passed") or 0, out.get("failed") or 0, out.get("errors") or 0
    code = out.get("exit_code")
    if not passed and not failed and not errors and code in (0, 5, None):
        return None  # no tests ran: nothing was checked
    ok = not failed and not errors and code in (0, None)
    counts = ", ".join(f"{n} {word}" for n, word in ((failed, "failed"), (errors, "errors"), (passed, "passed")) if n)
    summary = counts or f"exit code {code}"
    if ok:
        detail = f"tests pass: {summary}"
    else:
        shown = (out.get("failing") or [])[:SHOWN_FAILURES]
        lines = [f"tests fail: {summary}"]
        for f in shown:
            lines.append(f"FAILED {f.get('name')}")
            lines += ["  " + line for line in str(f.get("message") or "").splitlines()]
        if not shown:
            lines.append((out.get("output_tail") or "")[-600:])
        detail = "\n".join(lines)
        if len(detail) > MAX_DETAIL_CHARS:
            detail = detail[:MAX_DETAIL_CHARS] + "\n…"
    return Check("tests", ok, detail, command=out.get("command"), specific=True, summary=summary)
