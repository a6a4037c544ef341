"""Plan review over LSP (DESIGN §9, approval `plan`): the server asks its client
`agent/plan {runId, tasks: [strings]}` before the run's first task; the client answers
`{tasks: [strings]}` (edited, maybe) or `{decision: "rejected", comment?}`.

`review_plan(server)` is the run's `PlanReview` hook: it sends the request and reads the
answer with `PlanAnswer.from_json`; a client error (say, it does not know the method) or a
malformed answer raises, and the run fails with that reason (agent/plan_review.py). When
the run is cancelled while the client still shows the plan, the request is withdrawn
(`$/cancelRequest`, best effort). Must not know: the loop, how a client shows the plan.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from agentls.agent.plan_review import PlanAnswer, PlanReview, PlanReviewError
from agentls.lsp.params import plain

if TYPE_CHECKING:
    from agentls.lsp.language_server import AgentLanguageServer

METHOD = "agent/plan"
_ids = itertools.count(1)


def review_plan(server: AgentLanguageServer) -> PlanReview:
    """The hook that asks the client about a run's plan."""

    async def review(run_id: str, tasks: list[str]) -> PlanAnswer:
        msg_id = f"agentls-plan-{run_id}-{next(_ids)}"
        params = {"runId": run_id, "tasks": tasks}
        try:
            result: Any = await server.protocol.send_request_async(METHOD, params, msg_id=msg_id)
        except asyncio.CancelledError:
            server.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id=msg_id))
            raise
        except Exception as exc:  # the client answered with an error, or went away
            raise PlanReviewError(f"the client could not review the plan ({exc})") from None
        return PlanAnswer.from_json(plain(result))

    return review
