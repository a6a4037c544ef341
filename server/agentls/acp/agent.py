"""`agentls acp`: the agent over the Agent Client Protocol (v1) with the official SDK.

The handlers are thin: `initialize` advertises `loadSession`, embedded context and the
session list; `session/new` opens a §9 session on `cwd` (its workspace's tools and index
are shared by the sessions on it; the session's `mcpServers` join its settings);
`session/load` resumes a §9 session and replays it; `session/list` lists a workspace's
sessions; `session/prompt` runs the agent in the session (session.py);
`session/cancel` ends the run; `session/set_mode` picks the permission mode and
`session/set_config_option` the approval. An unknown session or a malformed param is
JSON-RPC -32602. The model is made once, on the first prompt, and shared.
Must not know: the transport (stdio is the CLI's choice), how a client shows anything.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionCapabilities,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionInfo,
    SessionListCapabilities,
    SessionMode,
    SessionModeState,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from acp import PROTOCOL_VERSION, RequestError
from agentls.acp.client_files import ClientFiles
from agentls.acp.mcp_servers import settings_with_servers
from agentls.acp.session import AcpSession
from agentls.agent.launch import Workbench
from agentls.agent.sessions import Session, SessionError, SessionStore
from agentls.llm.base import ChatModel
from agentls.settings import Settings
from agentls.tools.permissions import APPROVALS, MODES

log = logging.getLogger(__name__)

MODE_TEXT = {
    "read-only": "Reads and analyses the code; changes nothing.",
    "dev": "Proposes edits (reviewed here) and may use the web; runs no commands.",
    "ci": "Reads and runs commands (tests) in the sandbox; edits nothing.",
    "full": "Edits, runs commands in the sandbox, uses the network.",
}
APPROVAL_TEXT = {
    "ask": "Ask before each edit and command",
    "auto": "Apply edits at once (dev and full)",
    "never": "Propose only: nothing is applied",
    "plan": "Show the plan first, then ask before each edit and command",
}


class AgentlsAcp:
    """The ACP agent (the SDK's `Agent` protocol): one per connection."""

    def __init__(self, settings: Settings, make_model: Callable[[], ChatModel]) -> None:
        self.settings = settings
        self._make_model = make_model  # called once, on the first prompt
        self._model: ChatModel | None = None
        self._model_lock = asyncio.Lock()
        self.conn: Any = None
        self.capabilities = ClientCapabilities()
        self.sessions: dict[str, AcpSession] = {}
        self._benches: dict[Path, Workbench] = {}

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    # --- the handshake ------------------------------------------------------------------
    async def initialize(
        self, protocol_version: int, client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None, **kwargs: Any,
    ) -> InitializeResponse:  # fmt: skip
        # a missing clientCapabilities means none (DESIGN §10): fs/* is never called then
        self.capabilities = client_capabilities or ClientCapabilities()
        from agentls import __version__

        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(embedded_context=True),
                session_capabilities=SessionCapabilities(list=SessionListCapabilities()),
            ),
            agent_info=Implementation(name="agentls", title="agentls", version=__version__),
            auth_methods=[],
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> None:
        return None

    # --- sessions -----------------------------------------------------------------------
    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> NewSessionResponse:
        root = _root(cwd)
        session = SessionStore(root).create()
        opened = self._open(root, session, mcp_servers)
        return NewSessionResponse(
            session_id=session.session_id, modes=self._modes(opened), config_options=[self._approval(opened)]
        )

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> LoadSessionResponse:
        root = _root(cwd)
        try:
            session = SessionStore(root).load(session_id)
        except SessionError as exc:
            raise RequestError.invalid_params({"sessionId": session_id, "message": str(exc)}) from None
        opened = self.sessions.get(session_id) or self._open(root, session, mcp_servers)
        await opened.replay()
        return LoadSessionResponse(modes=self._modes(opened), config_options=[self._approval(opened)])

    async def list_sessions(self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any) -> ListSessionsResponse:
        roots = [_root(cwd)] if cwd else sorted({s.bench.workspace.root for s in self.sessions.values()})
        found = []
        for root in roots:
            for session in SessionStore(root).list():
                updated = datetime.datetime.fromtimestamp(session.updated, datetime.UTC).isoformat()
                found.append(SessionInfo(session_id=session.session_id, cwd=str(root), title=session.title or None, updated_at=updated))
        return ListSessionsResponse(sessions=found)

    async def set_session_mode(self, mode_id: str, session_id: str, **kwargs: Any) -> SetSessionModeResponse:
        session = self._session(session_id)
        if mode_id not in MODES:
            raise RequestError.invalid_params({"modeId": mode_id, "allowed": list(MODES)})
        session.set_mode(mode_id)
        return SetSessionModeResponse()

    async def set_config_option(self, config_id: str, session_id: str, value: str | bool, **kwargs: Any) -> SetSessionConfigOptionResponse:
        session = self._session(session_id)
        if config_id != "approval" or value not in APPROVALS:
            raise RequestError.invalid_params({"configId": config_id, "value": value, "allowed": {"approval": list(APPROVALS)}})
        session.approval = str(value)
        return SetSessionConfigOptionResponse(config_options=[self._approval(session)])

    # --- prompts ------------------------------------------------------------------------
    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> PromptResponse:
        session = self._session(session_id)
        model = await self._shared_model()
        stop = await session.prompt(prompt, model)
        return PromptResponse(stop_reason=stop)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self.sessions.get(session_id)
        if session is not None:
            session.cancel()

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    async def close(self) -> None:
        for session in self.sessions.values():
            session.cancel()
        for session in self.sessions.values():
            await asyncio.to_thread(session.close)
        if self._model is not None:
            await self._model.aclose()

    # --- helpers ------------------------------------------------------------------------
    def _session(self, session_id: Any) -> AcpSession:
        session = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if session is None:
            raise RequestError.invalid_params({"sessionId": session_id, "message": "no such session"})
        return session

    def _open(self, root: Path, session: Session, mcp_servers: list[Any] | None) -> AcpSession:
        """The session's own workbench (its MCP servers, its proposals) over the workspace's
        one index, shared by the sessions on it."""
        settings = settings_with_servers(self.settings, mcp_servers or [])
        first = self._benches.get(root)
        if first is None:
            bench = self._benches[root] = Workbench.indexed(root, settings)
        else:
            bench = Workbench.open(first.workspace, index=first.index, ready=first.ready, settings=settings)
        fs = self.capabilities.fs
        files = ClientFiles(
            self.conn, session.session_id, bench.workspace, asyncio.get_running_loop(),
            can_read=bool(fs and fs.read_text_file), can_write=bool(fs and fs.write_text_file),
        )  # fmt: skip
        old = self.sessions.pop(session.session_id, None)
        if old is not None:
            old.close()
        opened = self.sessions[session.session_id] = AcpSession(self.conn, session, bench, settings, files)
        return opened

    async def _shared_model(self) -> ChatModel:
        async with self._model_lock:
            model = self._model
            if model is None:
                try:
                    model = await asyncio.to_thread(self._make_model)
                except Exception as exc:
                    raise RequestError.internal_error({"message": f"the model could not start: {exc}"}) from None
                self._model = model
            return model

    def _modes(self, session: AcpSession) -> SessionModeState:
        return SessionModeState(
            current_mode_id=session.mode,
            available_modes=[SessionMode(id=m, name=m, description=MODE_TEXT.get(m)) for m in MODES],
        )

    def _approval(self, session: AcpSession) -> SessionConfigOptionSelect:
        return SessionConfigOptionSelect(
            id="approval", name="Approval", type="select", current_value=session.approval,
            description="What happens to a proposed edit or command",
            options=[SessionConfigSelectOption(value=a, name=APPROVAL_TEXT[a]) for a in APPROVALS],
        )  # fmt: skip


def _root(cwd: Any) -> Path:
    if not isinstance(cwd, str) or not Path(cwd).is_absolute():
        raise RequestError.invalid_params({"cwd": cwd, "message": "cwd must be an absolute path"})
    root = Path(cwd).resolve()
    if not root.is_dir():
        raise RequestError.invalid_params({"cwd": cwd, "message": "cwd is not a directory"})
    return root
