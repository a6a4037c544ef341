"""The chat history as a small local model's chat template can take it.

A GGUF's own chat template may not know `role: "tool"`, assistant `tool_calls`, system
messages in mid-conversation or two user messages in a row, and the model sees no
`tools` parameter. So the history becomes plain system/user/assistant text: the offered
tools are listed in the (single, leading) system message with the reply format; an
assistant tool call becomes the JSON object the grammar makes the model write
(`{"name": ..., "arguments": {...}}`); a tool result becomes a user message
"Result of <tool>: …"; consecutive messages of one role are merged.
Must not know: llama.cpp, the agent loop, tools' classes.
"""

from __future__ import annotations

import json
from typing import Any

from agentls.llm.base import Message, ToolSpec
from agentls.llm.local.fenced import Fenced, call_text, prompt_note

CALL_FORMAT = (
    "Reply with exactly one tool call, as one JSON object: "
    '{"name": "<tool name>", "arguments": {<the tool\'s arguments>}}. '
    "Arguments marked ? are optional."
)


#: An argument's choices listed in the tool's signature up to this many.
MAX_SHOWN_CHOICES = 8

#: After each tool result: small models otherwise tend to repeat the call they just made.
NEXT_STEP = "You have this result now; do not repeat that call. If the task is done, call finish with the answer; otherwise call the next tool."


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


def _type_of(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        shown = "|".join(json.dumps(v) for v in schema["enum"])
        # a long choice (the lines of a file) is the grammar's business, not the prompt's
        return shown if len(schema["enum"]) <= MAX_SHOWN_CHOICES else "string"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return "|".join(_type_of(s) for s in schema[key])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        return f"array of {_type_of(schema.get('items') or {})}"
    return str(kind)


def signature(tool: ToolSpec) -> str:
    """`name(arg: type, opt?: type) — first paragraph of the description`."""
    fn = tool["function"]
    params = fn.get("parameters") or {}
    required = set(params.get("required") or [])
    args = [
        f"{name}{'' if name in required else '?'}: {_type_of(schema)}"
        for name, schema in (params.get("properties") or {}).items()
    ]
    description = (fn.get("description") or "").strip().split("\n\n")[0].replace("\n", " ")
    return f"- {fn['name']}({', '.join(args)}) — {description}".rstrip(" —")


def tools_text(tools: list[ToolSpec], fenced: dict[str, Fenced] | None = None) -> str:
    fenced = fenced or {}
    lines = [signature(_shown(t, fenced)) for t in tools]
    note = prompt_note(fenced)
    return "Tools you can call:\n" + "\n".join(lines) + "\n" + CALL_FORMAT + (f"\n{note}" if note else "")


def _shown(tool: ToolSpec, fenced: dict[str, Fenced]) -> ToolSpec:
    """A fenced tool as its signature shows it: the code argument after the call."""
    f = fenced.get(tool["function"]["name"])
    if f is None:
        return tool
    fn = tool["function"]
    return {**tool, "function": {**fn, "parameters": f.arguments, "description": (fn.get("description") or "").strip().split("\n\n")[0] + f" The {f.field} goes in a fenced block after the call."}}


def _call_text(call: dict[str, Any], fenced: dict[str, Fenced]) -> str:
    fn = call.get("function") or {}
    raw = fn.get("arguments") or "{}"
    try:
        arguments: Any = json.loads(raw, strict=False)
    except (TypeError, ValueError):
        arguments = raw
    name = str(fn.get("name", ""))
    if isinstance(arguments, dict) and name in fenced:
        return call_text(name, arguments, fenced[name].field)
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def to_local_messages(
    messages: list[Message], tools: list[ToolSpec] | None, fenced: dict[str, Fenced] | None = None
) -> list[Message]:
    """The history in system/user/assistant text only (see the module docstring); calls
    of `fenced` tools are written with their code in a fence, as the model writes them."""
    fenced = fenced or {}
    system: list[str] = []
    out: list[Message] = []
    names: dict[str, str] = {}  # tool_call_id → tool name

    def add(role: str, text: str) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"] += "\n\n" + text
        else:
            out.append({"role": role, "content": text})

    for msg in messages:
        role, text = msg.get("role"), _text(msg.get("content"))
        if role == "system":
            if out:
                add("user", f"[system] {text}")
            else:
                system.append(text)
        elif role == "assistant":
            calls = msg.get("tool_calls") or []
            for call in calls:
                names[str(call.get("id"))] = str((call.get("function") or {}).get("name", ""))
            parts = [text] if text else []
            parts += [_call_text(c, fenced) for c in calls]
            add("assistant", "\n".join(parts))
        elif role == "tool":
            name = names.get(str(msg.get("tool_call_id")), "the tool")
            add("user", f"Result of {name}: {text}\n\n{NEXT_STEP}")
        else:
            add("user", text)
    if tools:
        system.append(tools_text(tools, fenced))
    if system:
        out.insert(0, {"role": "system", "content": "\n\n".join(s for s in system if s)})
    return out
