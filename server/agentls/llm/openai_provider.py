"""`openai:<model>`: any OpenAI-compatible endpoint through the official `openai` SDK.

Every turn is one `POST {base}/chat/completions` (DESIGN §6). On the native protocol an
acting turn passes `tools` with `tool_choice: "auto"` (the agent checks that exactly one
call came back) and a planning turn passes no tools and no response format, so that any
compatible server works (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, a recording).
Endpoints whose native tool calling fails get another tool protocol (`tool_protocol`:
auto | native | json | text; tool_protocol.py): a request shape the endpoint refuses is
sent again in the next shape within the same turn, and under `auto` a reply with no
usable call moves the next turn on; a change is reported once through `ModelTurn.notice`.
Streaming (`stream=True`, tool-call deltas assembled by index) or not, per constructor;
off by default, and turned off for good when a streamed request fails on the server.
The API key comes from the environment variable named by `api_key_env`; a custom base URL
may do without one ("not-needed" is sent). SDK errors become ModelError with the cause.
Must not know: the agent loop, tools' internals, LSP.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import openai

from agentls.llm.base import Message, ModelError, ModelTurn, ToolCall, ToolSpec, Usage
from agentls.llm.tool_protocol import (
    ProtocolChooser,
    protocol_of,
    read_calls,
    refuses_shape,
    request_body,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def _is_default(base_url: str | None) -> bool:
    return base_url is None or base_url.rstrip("/").startswith("https://api.openai.com")


class OpenAIModel:
    """One model behind an OpenAI-compatible chat-completions endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        stream: bool = False,
        context_tokens: int = 32_000,
        timeout_s: float = 300.0,
        max_retries: int = 2,
        tool_protocol: str = "auto",
    ) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.api_key_env = api_key_env
        self.stream = stream
        self.context_tokens = context_tokens
        self._explicit_key = api_key
        self._custom_url = not _is_default(base_url)
        self._timeout_s = timeout_s
        self._max_retries = max_retries
        self._client: openai.AsyncOpenAI | None = None
        self.protocol = ProtocolChooser(tool_protocol, f"the endpoint at {self.base_url}")
        self._notices: list[str] = []

    def _api_key(self) -> str:
        key = self._explicit_key or os.environ.get(self.api_key_env, "")
        if key:
            return key
        if self._custom_url:
            return "not-needed"  # local servers (Ollama, vLLM, llama.cpp) ignore it
        raise ModelError(
            f"no API key for {self.base_url}: set the environment variable {self.api_key_env} "
            "(or point the base URL at a server that needs none)"
        )

    def _get_client(self) -> openai.AsyncOpenAI:
        if self._client is None:
            self._client = openai.AsyncOpenAI(
                api_key=self._api_key(),
                base_url=self.base_url,
                timeout=self._timeout_s,
                max_retries=self._max_retries,
            )
        return self._client

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,  # sent only on a json protocol
    ) -> ModelTurn:
        client = self._get_client()
        saved = self.protocol.state()
        try:
            return await self._complete(client, messages, tools, json_schema)
        except ModelError:
            # No shape answered: the trouble is not the shape (an over-long prompt is an
            # HTTP 400 in every shape), so this turn's refusals are not remembered.
            self.protocol.restore(saved)
            raise

    async def _complete(
        self,
        client: openai.AsyncOpenAI,
        messages: list[Message],
        tools: list[ToolSpec] | None,
        json_schema: dict[str, Any] | None,
    ) -> ModelTurn:
        chooser = self.protocol
        while True:
            shape = chooser.shape
            request = request_body(shape, self.model, messages, tools, json_schema)
            try:
                turn = await self._send(client, request)
            except openai.APIStatusError as exc:
                if not refuses_shape(exc.status_code):
                    raise self._error(exc) from None
                reason = f"HTTP {exc.status_code}: {' '.join(_detail(exc).split())[:120]}"
                if tools and chooser.can_fall_back():
                    chooser.refused(reason)
                    continue
                if not tools and "response_format" in request:  # plan without the schema
                    json_schema = None
                    continue
                raise self._error(exc) from None
            except openai.OpenAIError as exc:
                raise self._error(exc) from None
            if tools:
                message = turn.raw["choices"][0].get("message") or {}
                turn.tool_calls = read_calls(message, tools, from_text=chooser.reads_text)
                offered = {str(t["function"]["name"]) for t in tools}
                usable = any(c.name in offered for c in turn.tool_calls)
                chooser.answered(usable, from_text=not message.get("tool_calls"))
                turn.raw["toolProtocol"] = protocol_of(shape)
                if turn.tool_calls and shape != "native":
                    turn.content = None  # the content was the call itself
            said = [*self._notices, *filter(None, [chooser.take_notice()])]
            self._notices.clear()
            turn.notice = "; ".join(said) or None
            return turn

    async def _send(self, client: openai.AsyncOpenAI, request: dict[str, Any]) -> ModelTurn:
        if self.stream:
            try:
                return await self._streamed(client, request)
            except openai.APIStatusError as exc:
                if exc.status_code < 500:
                    raise
                why = f"HTTP {exc.status_code}"
            except (openai.APIConnectionError, openai.APITimeoutError):
                raise
            except openai.APIError as exc:  # an error event or a broken stream
                why = str(exc)[:200]
            self.stream = False
            self._notices.append(
                f"the endpoint at {self.base_url}: streaming failed ({why}); streaming off"
            )
        response = await client.chat.completions.create(**request)
        if not hasattr(response, "model_dump"):  # e.g. an HTML page from a proxy
            raise ModelError(f"the endpoint at {self.base_url} did not answer with JSON")
        return self._turn(response.model_dump(mode="json", exclude_none=True))

    async def _streamed(self, client: openai.AsyncOpenAI, request: dict[str, Any]) -> ModelTurn:
        stream = await client.chat.completions.create(
            **request, stream=True, stream_options={"include_usage": True}
        )
        content: list[str] = []
        calls: dict[int, dict[str, Any]] = {}
        usage: dict[str, Any] = {}
        finish: str | None = None
        async for chunk in stream:
            data = chunk.model_dump(mode="json", exclude_none=True)
            usage = data.get("usage") or usage
            for choice in data.get("choices") or []:
                finish = choice.get("finish_reason") or finish
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    content.append(delta["content"])
                for part in delta.get("tool_calls") or []:
                    index = part.get("index")
                    index = len(calls) if index is None else int(index)
                    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                    call["id"] = part.get("id") or call["id"]
                    fn = part.get("function") or {}
                    call["name"] += fn.get("name") or ""
                    call["arguments"] += fn.get("arguments") or ""
        message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
        if calls:
            message["tool_calls"] = [
                {
                    "id": c["id"],
                    "type": "function",
                    "function": {"name": c["name"], "arguments": c["arguments"]},
                }
                for _, c in sorted(calls.items())
            ]
        raw = {"model": self.model, "streamed": True, "usage": usage}
        raw["choices"] = [{"index": 0, "message": message, "finish_reason": finish}]
        return self._turn(raw)

    def _turn(self, raw: dict[str, Any]) -> ModelTurn:
        choices = raw.get("choices") or []
        if not choices:
            raise ModelError(f"the endpoint at {self.base_url} returned no choices")
        message = choices[0].get("message") or {}
        calls = [
            ToolCall(
                id=c.get("id") or f"call_{uuid.uuid4().hex[:16]}",
                name=(c.get("function") or {}).get("name") or "",
                arguments=(c.get("function") or {}).get("arguments") or "{}",
            )
            for c in message.get("tool_calls") or []
        ]
        u = raw.get("usage") or {}
        usage = Usage(
            prompt_tokens=int(u.get("prompt_tokens") or 0),
            completion_tokens=int(u.get("completion_tokens") or 0),
        )
        return ModelTurn(content=message.get("content"), tool_calls=calls, usage=usage, raw=raw)

    def _error(self, exc: openai.OpenAIError) -> ModelError:
        where = f"the model endpoint at {self.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return ModelError(f"{where} did not answer within {self._timeout_s:g} s")
        if isinstance(exc, openai.APIConnectionError):
            return ModelError(
                f"cannot reach {where} (is the server running? check the base URL): {exc}"
            )
        if isinstance(exc, openai.AuthenticationError):
            return ModelError(
                f"{where} rejected the API key (HTTP 401): check the key in the environment "
                f"variable {self.api_key_env}"
            )
        if isinstance(exc, openai.PermissionDeniedError):
            return ModelError(
                f"{where} refused access (HTTP 403) with the key in {self.api_key_env}: {_detail(exc)}"
            )
        if isinstance(exc, openai.NotFoundError):
            return ModelError(
                f"{where} has no model {self.model!r} or no /chat/completions (HTTP 404): {_detail(exc)}"
            )
        if isinstance(exc, openai.RateLimitError):
            return ModelError(f"{where} is rate limiting (HTTP 429): {_detail(exc)}")
        if isinstance(exc, openai.APIStatusError):
            return ModelError(f"{where} answered HTTP {exc.status_code}: {_detail(exc)}")
        return ModelError(f"{where} failed: {exc}")

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()


def _detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return str(exc.message)
