"""`agent/run {goal, sessionId?, mode?, approval?, maxSteps?, context?: {uri, range?,
diagnostics?, mentions?}}` → `{runId, sessionId}`.

The run goes on in the background (RunManager); `context.uri` picks the workspace folder
and the editor context (path, range, selected text, the diagnostics a "Fix this"
code action carries, and the mentions the user picked, resolved like the goal's `@…`),
else the folder of the session `sessionId` names, else the first
folder. `sessionId` continues that session (DESIGN §9: the run sees its earlier runs); an
unknown one is -32602 naming `sessionId`; without it the run starts a new session. A
`workDoneToken` in the params is used for the run's progress. Here the params' shapes are
read (strings, an integer, the context's uri, range and diagnostics); what the values may
be is checked where every front end's runs are (`agent.launch.RunRequest`). Bad params →
JSON-RPC -32602 naming the field; no workspace folder → -32803. `start_from_params` is
shared with the `agentls.agent.run` command (execute_command.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from agentls.agent.run import EditorContext
from agentls.lsp.language_server import AgentLanguageServer
from agentls.lsp.params import AgentRequestError, diagnostic_lines, fields, integer, lsp_range, text
from agentls.lsp.runs import RunManager

METHOD = "agent/run"


async def start_from_params(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
    """Check the `agent/run` params, start the run; `{runId, sessionId}`."""
    data = fields(params, METHOD)
    goal = text(data, "goal", METHOD, required=True) or ""
    mode = text(data, "mode", METHOD)
    approval = text(data, "approval", METHOD)
    max_steps = integer(data, "maxSteps", METHOD)
    session_id = text(data, "sessionId", METHOD)
    context = data.get("context")
    if context is not None and not isinstance(context, dict):
        raise AgentRequestError(f"{METHOD}: 'context' must be an object {{uri, range?}}", "context")
    manager = RunManager.of(ls)
    request = manager.request(goal, mode, approval, max_steps)
    editor: EditorContext | None = None
    if context is None:
        found = manager.project_of_session(session_id) if session_id is not None else None
        project = found or manager.project_for(None)[0]
    else:
        uri = text(context, "uri", METHOD, required=True) or ""
        project, rel = manager.project_for(uri)
        rng = context.get("range")
        rng = lsp_range(rng, "context.range", METHOD) if rng is not None else None
        problems = diagnostic_lines(context.get("diagnostics"), "context.diagnostics", METHOD)
        editor = manager.editor_context(project, rel or "", rng, problems)
        editor = replace(editor, mentions=_mentions(context.get("mentions")))
    session = manager.session(project, session_id)
    token = data.get("workDoneToken")
    run_id = manager.start(project, replace(request, editor=editor), progress_token=token, session=session)
    return {"runId": run_id, "sessionId": session.session_id}


def register(server: AgentLanguageServer) -> None:
    @server.feature(METHOD)
    async def agent_run(ls: AgentLanguageServer, params: Any) -> dict[str, Any]:
        return await start_from_params(ls, params)


#: Mentions a request may pick (the agent resolves at most 8; the rest are reported).
MAX_PICKED = 20


def _mentions(value: Any) -> tuple[str, ...]:
    """`context.mentions`: a list of mention strings (`"@src/app.py"`, `"@diff"`)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v) <= 4096 for v in value):
        raise AgentRequestError(f"{METHOD}: 'context.mentions' must be a list of mention strings", "context.mentions")
    return tuple(value[:MAX_PICKED])
