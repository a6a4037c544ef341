"""Serving the ACP agent on stdin/stdout (newline-delimited JSON-RPC, the SDK's transport);
logs go to stderr. Ends when the client closes the connection; runs still going are
cancelled and the model is closed. Must not know: the handlers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from acp import run_agent
from agentls.acp.agent import AgentlsAcp
from agentls.llm.base import ChatModel
from agentls.settings import Settings


def serve(settings: Settings, make_model: Callable[[], ChatModel]) -> int:
    agent = AgentlsAcp(settings, make_model)

    async def main() -> None:
        try:
            await run_agent(agent)  # type: ignore[arg-type]  # the SDK's Agent is a Protocol our handlers meet by signature
        finally:
            await agent.close()

    asyncio.run(main())
    return 0
