"""Run events: what outsiders (the CLI, the LSP layer) observe of a run.

Kinds (contract): `task` (a task was added or changed status), `thought` (the model's
text beside a call), `tool_call`, `tool_result`, `proposal` (a proposal of this run was
created or resolved), `error` (a problem the run reports: a bad reply, a tool error, the
reason it failed), `finished` (the run ended; always the last event), plus `status` (the run
started; a model turn is starting: `phase` planning | acting, `steps` so far — for spinners
and progress; or, with a `notice`, something the model's provider says once, such as an
endpoint's tool calls moving to another protocol), and `stream` (a model that streams: the
text it generated since the last `stream` event, `phase` planning | acting — the first
piece at once, then at most four a second, so a silent turn is never silent), `plan`
(approval `plan`, DESIGN §9: `action` asked with the first plan's `tasks`, then approved or
edited with the tasks the run takes, or rejected with the user's `comment`), `rules` (the
project's rules files the run read into its instructions, before its first turn: each
file's `path`, `chars` and whether it was `cut` to the budget) and `warning` (something the
run could not use and goes on without — a mention it could not resolve, a rules file
refused: `source` `mention` | `rules`, `subject`, `message`).
`to_dict()` → `{"runId", "kind", **data}`. Must not know: who listens, LSP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

KINDS: Final = frozenset(
    {"task", "thought", "tool_call", "tool_result", "proposal", "error", "finished", "status", "stream", "plan", "rules", "warning"}
)


@dataclass(frozen=True, slots=True)
class RunEvent:
    run_id: str
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown run event kind {self.kind!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"runId": self.run_id, "kind": self.kind, **self.data}
