"""Tool calls written as text, read back: the last-resort tool-call protocol.

Endpoints whose native tool calling fails often still write the call into the message
content. Three forms are read, in this order:
- Qwen/Hermes tags: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`;
- `functions.NAME` followed by the arguments as JSON (llama-cpp-python's
  `chatml-function-calling` and other OpenAI-function-style prompts: `functions.read_file:
  {"path": "a.py"}`, also `to=functions.NAME`);
- a bare JSON object `{"name": ..., "arguments": {...}}` anywhere in the text (in a code
  fence or not; `parameters` is read like `arguments`, and arguments given as a JSON
  string are unwrapped);
- a Python call `finish(summary="...")` or `finish("...")` (the "pythonic" form some
  models write, e.g. Qwen under plain ChatML, Llama 3.2), read with `ast` — literals only,
  positional arguments given the tool's parameters in their declared order.
The first call found wins (the agent runs one call per turn). A bare JSON object or a
Python call only counts when it names one of the offered tools, so that a JSON value or
code the model merely quotes is not taken for a call; tagged forms are explicit and count whatever they name
(an unknown name is then the agent's bad reply, told to the model). Arguments that are
not valid JSON after `functions.NAME` are passed on as written, for the agent to reject
with its own message. Must not know: the agent loop, tools, LSP, HTTP.
"""

from __future__ import annotations

import ast
import json
import re
import uuid
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from agentls.llm.base import ToolCall

_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FUNCTIONS = re.compile(r"(?:to=)?functions\.([A-Za-z_][\w\-]*)\s*:?\s*")
_DECODER = json.JSONDecoder(strict=False)
_PY_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_PY_MAX_CHARS = 20_000  # longer texts are not searched for Python calls
_PY_MAX_TRIES = 64  # closing parentheses tried per call found


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:16]}"


def _objects(text: str) -> Iterator[dict[str, Any]]:
    """Every JSON object that starts at a `{` of `text` (outermost first)."""
    pos = text.find("{")
    while pos != -1:
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except ValueError:
            pos = text.find("{", pos + 1)
            continue
        if isinstance(value, dict):
            yield value
            pos = text.find("{", end)
        else:  # pragma: no cover - raw_decode at "{" yields a dict or fails
            pos = text.find("{", pos + 1)


def _arguments_text(value: Any) -> str:
    if isinstance(value, str):  # some templates write the arguments as a JSON string
        try:
            value = json.loads(value, strict=False)
        except ValueError:
            return value
    return json.dumps({} if value is None else value, ensure_ascii=False)


def _from_object(obj: dict[str, Any]) -> ToolCall | None:
    """`{"name", "arguments" | "parameters"}`, also wrapped as `{"function": {...}}`."""
    if isinstance(obj.get("function"), dict) and "name" not in obj:
        obj = obj["function"]
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    args = obj.get("arguments", obj.get("parameters", {}))
    return ToolCall(id=new_call_id(), name=name.strip(), arguments=_arguments_text(args))


def _tagged(text: str) -> ToolCall | None:
    for match in _TAG.finditer(text):
        for obj in _objects(match.group(1)):
            call = _from_object(obj)
            if call is not None:
                return call
    return None


def _functions_form(text: str) -> ToolCall | None:
    match = _FUNCTIONS.search(text)
    if match is None:
        return None
    rest = text[match.end() :].strip()
    if rest.startswith("```"):
        rest = re.sub(r"^```[A-Za-z]*\s*", "", rest)
    if not rest.startswith("{"):
        return None  # `functions.read_file:` and nothing after it is no call
    try:
        value, _ = _DECODER.raw_decode(rest)
        arguments = _arguments_text(value)
    except ValueError:
        arguments = rest.split("\n\n")[0].rstrip("`").strip()
    return ToolCall(id=new_call_id(), name=match.group(1), arguments=arguments)


def _bare(text: str, names: Collection[str]) -> ToolCall | None:
    for obj in _objects(text):
        call = _from_object(obj)
        if call is not None and call.name in names:
            return call
    return None


def _python_call(node: ast.expr, params: Sequence[str]) -> dict[str, Any] | None:
    """The arguments of a call written with literals only, or None."""
    if not isinstance(node, ast.Call) or len(node.args) > len(params):
        return None
    try:
        args = {name: ast.literal_eval(arg) for name, arg in zip(params, node.args, strict=False)}
        for kw in node.keywords:
            if kw.arg is None:
                return None  # **kwargs
            args[kw.arg] = ast.literal_eval(kw.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return args


def _pythonic(text: str, params: Mapping[str, Sequence[str]]) -> ToolCall | None:
    if len(text) > _PY_MAX_CHARS:
        return None
    closes = [i + 1 for i, ch in enumerate(text) if ch == ")"]
    for match in _PY_CALL.finditer(text):
        name = match.group(1)
        if name not in params:
            continue
        for end in [e for e in closes if e > match.end()][:_PY_MAX_TRIES]:
            try:
                node = ast.parse(text[match.start() : end], mode="eval").body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                continue
            args = _python_call(node, params[name])
            if args is not None:
                return ToolCall(id=new_call_id(), name=name, arguments=json.dumps(args, ensure_ascii=False))
            break
    return None


def parse_text_call(
    text: str | None, names: Collection[str] | Mapping[str, Sequence[str]]
) -> ToolCall | None:
    """The first tool call written in `text`, or None. `names` are the offered tools, or a
    mapping of each to its parameter names in order (needed for positional Python calls;
    with a plain collection only keyword arguments are read)."""
    if not text or not text.strip():
        return None
    params = names if isinstance(names, Mapping) else {n: () for n in names}
    return (
        _tagged(text) or _functions_form(text) or _bare(text, params) or _pythonic(text, params)
    )
