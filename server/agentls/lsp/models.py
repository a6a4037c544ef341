"""The models of the server's runs, made from the settings (model, baseUrl, apiKeyEnv,
toolProtocol).

A model is made once per (spec, baseUrl, apiKeyEnv, toolProtocol) and shared by every run that uses it
(an endpoint's client, the embedded model's weights) — except `replay:` recordings, which
keep their position: each run gets a fresh one and so replays from its first turn. A spec
that cannot be made becomes an `UnavailableModel` whose first turn raises the ModelError,
so the run ends "failed" with the message in an `error` event like any model error.
Must not know: runs, tools, LSP.
"""

from __future__ import annotations

import contextlib
from typing import Any

from agentls.llm.base import ChatModel, Message, ModelError, ModelTurn, ToolSpec
from agentls.llm.factory import make_model
from agentls.settings import Settings


class UnavailableModel:
    """Stands for a model spec that could not be made: every turn is that ModelError."""

    context_tokens = 32_000

    def __init__(self, spec: str, reason: str) -> None:
        self.name = spec
        self.reason = reason

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> ModelTurn:
        raise ModelError(self.reason)

    async def aclose(self) -> None:
        return None


class ModelCache:
    def __init__(self) -> None:
        self._models: dict[tuple[str, str | None, str, str], ChatModel] = {}

    def get(self, settings: Settings) -> tuple[ChatModel, bool]:
        """The model for these settings and whether it is shared (else: close it after)."""
        spec = settings.model
        key = (spec, settings.base_url, settings.api_key_env, settings.tool_protocol)
        shared = not spec.strip().startswith("replay:")
        if shared and key in self._models:
            return self._models[key], True
        try:
            model = make_model(
                spec,
                base_url=settings.base_url,
                api_key_env=settings.api_key_env,
                tool_protocol=settings.tool_protocol,
            )
        except (ValueError, ModelError) as exc:
            return UnavailableModel(spec, str(exc)), False
        if shared:
            self._models[key] = model
        return model, shared

    async def aclose(self) -> None:
        for model in self._models.values():
            with contextlib.suppress(Exception):
                await model.aclose()
        self._models.clear()
