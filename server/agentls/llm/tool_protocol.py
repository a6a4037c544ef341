"""How tool calls travel to and from one OpenAI-compatible endpoint, and the fallbacks.

Request shapes, in the order `auto` tries them (the setting `toolProtocol`):
- `native` (protocol native): the tools in `tools`, `tool_choice: "auto"` — DESIGN §6's
  contract, sent exactly as before;
- `json_schema` (protocol json): no `tools`; the tools listed in the system prompt with
  the reply format, and `response_format: {"type": "json_schema", ...}` holding the reply
  to the tool-call schema the embedded model's grammar uses (one `{"name", "arguments"}`
  object naming an offered tool; OpenAI, vLLM, Ollama, LM Studio, llama.cpp's server);
- `json_object` (protocol json): the same schema as `{"type": "json_object", "schema"}`
  (llama-cpp-python's server, which answers the other form with HTTP 500);
- `text` (protocol text): the prompt alone; the call is read from the text (text_calls).
Off the native shape the history is rewritten as plain system/user/assistant text (the
local model's prompt.py), since such endpoints often cannot take `role: "tool"` either.

`ProtocolChooser` keeps one endpoint's state: a shape the endpoint refuses (HTTP 400,
422 or 5xx) is retried at once in the next shape (a turn that no shape answers is a model
error and changes nothing: an over-long prompt is refused in every shape); under `auto`, acting replies with no
usable call (no call to an offered tool, natively or in its text) move the next turn to
the next shape — after two in a row on the native shape (one slip of a model that can call
tools stays on the contract's path; the agent feeds it back as a bad reply), after one on
the others — until one shape has given a usable call; from then on that shape is kept
(the model's own slips are bad replies for the agent, not protocol failures). Every change
is said once, as a notice the turn carries. Planning turns follow the chosen shape's
message form and, on a json shape, hold the reply to their `json_schema`.
Must not know: the agent loop, tools' classes, LSP, the HTTP client.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from agentls.llm.base import Message, ToolCall, ToolSpec, plain_tools
from agentls.llm.local.grammar import tool_call_schema
from agentls.llm.local.prompt import to_local_messages
from agentls.llm.text_calls import new_call_id, parse_text_call

ToolProtocol = Literal["auto", "native", "json", "text"]
Shape = Literal["native", "json_schema", "json_object", "text"]
PROTOCOLS: tuple[str, ...] = get_args(ToolProtocol)
LADDERS: dict[str, tuple[Shape, ...]] = {
    "auto": ("native", "json_schema", "json_object", "text"),
    "native": ("native",),
    "json": ("json_schema", "json_object"),
    "text": ("text",),
}
#: HTTP statuses that mean "not this request shape" (unknown parameter, server error).
REFUSED = frozenset({400, 422})
#: Acting replies without a usable call, in a row, before `auto` leaves a shape.
MISSES: dict[str, int] = {"native": 2}


def protocol_of(shape: Shape) -> str:
    return "json" if shape.startswith("json") else shape


def refuses_shape(status: int) -> bool:
    return status in REFUSED or status >= 500


def _unbounded(schema: Any) -> Any:
    """`schema` without string length caps: a server's own schema converter may expand
    `maxLength: N` into N nested rules (llama.cpp's does, and crashes past ~1000).
    `minLength` stays (a path must not be empty)."""
    if isinstance(schema, dict):
        return {k: _unbounded(v) for k, v in schema.items() if k != "maxLength"}
    if isinstance(schema, list):
        return [_unbounded(v) for v in schema]
    return schema


def call_schema(tools: list[ToolSpec]) -> dict[str, Any]:
    """The JSON schema of one tool call naming one of `tools`."""
    return dict(_unbounded(tool_call_schema(tools)))


def _response_format(shape: Shape, schema: dict[str, Any]) -> dict[str, Any]:
    if shape == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
    return {"type": "json_object", "schema": schema}


def request_body(
    shape: Shape,
    model: str,
    messages: list[Message],
    tools: list[ToolSpec] | None,
    json_schema: dict[str, Any] | None,
) -> dict[str, Any]:
    """The chat-completions request of one turn in `shape`."""
    if shape == "native":
        body: dict[str, Any] = {"model": model, "messages": messages}
        if tools:
            body["tools"] = plain_tools(tools)
            body["tool_choice"] = "auto"
        return body
    body = {"model": model, "messages": to_local_messages(messages, tools or None)}
    schema = call_schema(tools) if tools else json_schema
    if shape != "text" and schema:
        body["response_format"] = _response_format(shape, _unbounded(schema))
    return body


def read_calls(
    message: dict[str, Any], tools: list[ToolSpec], *, from_text: bool
) -> list[ToolCall]:
    """The calls of an acting reply: its native `tool_calls`, else (when `from_text`) the
    one call written in its content."""
    calls = [
        ToolCall(
            id=c.get("id") or new_call_id(),
            name=(c.get("function") or {}).get("name") or "",
            arguments=(c.get("function") or {}).get("arguments") or "{}",
        )
        for c in message.get("tool_calls") or []
    ]
    if calls or not from_text:
        return calls
    params = {
        str(t["function"]["name"]): list((t["function"].get("parameters") or {}).get("properties") or {})
        for t in tools
    }
    call = parse_text_call(message.get("content"), params)
    return [call] if call else []


class ProtocolChooser:
    """The tool-call shape of one endpoint (see the module docstring)."""

    def __init__(self, setting: str = "auto", where: str = "the endpoint") -> None:
        if setting not in LADDERS:
            raise ValueError(f"toolProtocol must be one of {', '.join(PROTOCOLS)}, got {setting!r}")
        self.setting = setting
        self.where = where
        self._ladder = LADDERS[setting]
        self._index = 0
        self.settled = False
        self._misses = 0
        self._notices: list[str] = []

    @property
    def shape(self) -> Shape:
        return self._ladder[self._index]

    @property
    def reads_text(self) -> bool:
        """Whether replies without native calls are searched for a call in their text
        (every shape but native under `toolProtocol: native`, the contract as it was)."""
        return self.setting != "native"

    def can_fall_back(self) -> bool:
        return self._index + 1 < len(self._ladder)

    def _advance(self, why: str) -> None:
        before = self.shape
        self._index += 1
        self.settled, self._misses = False, 0
        self._notices.append(
            f"{self.where}: {why} with tool calls as {before}; "
            f"trying {self.shape} (tool protocol {protocol_of(self.shape)})"
        )

    def refused(self, reason: str) -> None:
        """The endpoint refused the current shape (the caller checked can_fall_back)."""
        self._advance(f"the request was refused ({reason})")

    def answered(self, usable: bool, from_text: bool = False) -> None:
        """An acting reply in the current shape did (not) carry a usable call (`from_text`:
        read from its content, not from native `tool_calls`)."""
        if usable and not self.settled:
            self.settled = True
            if self.shape != "native":
                self._notices.append(
                    f"{self.where}: tool calls work as {self.shape} "
                    f"(tool protocol {protocol_of(self.shape)}); kept for this endpoint"
                )
            elif from_text:
                self._notices.append(
                    f"{self.where}: tool calls come back in the reply text, not as tool_calls; "
                    "reading them from the text (tool protocol native)"
                )
        elif not usable and not self.settled and self.setting == "auto" and self.can_fall_back():
            self._misses += 1
            if self._misses >= MISSES.get(self.shape, 1):
                times = f" ({self._misses} replies in a row)" if self._misses > 1 else ""
                self._advance(f"no usable tool call came back{times}")

    def state(self) -> tuple[int, bool, int]:
        return self._index, self.settled, self._misses

    def restore(self, state: tuple[int, bool, int]) -> None:
        """Back to `state` (from `state()`), the notices since then dropped."""
        self._index, self.settled, self._misses = state
        self._notices.clear()

    def take_notice(self) -> str | None:
        text, self._notices = "; ".join(self._notices), []
        return text or None
