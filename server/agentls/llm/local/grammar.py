"""The JSON schema a constrained local model's output is held to, per turn.

An acting turn's output is one tool call written as `{"name": ..., "arguments": {...}}`:
a discriminated union with one `anyOf` branch per offered tool, the name fixed by `const`
and the arguments held to that tool's own input schema, simplified for llama.cpp's
schema-to-grammar converter: `$ref`s inlined, keywords it mishandles dropped (`pattern`
must be anchored there, unknown `format`s are errors), and a `maxLength` on every string
so a small model cannot ramble inside one. A planning turn's output is TASKS_SCHEMA.
Must not know: llama.cpp, the agent, tools' classes (it sees OpenAI `tools` dicts).
"""

from __future__ import annotations

import copy
from typing import Any

from agentls.llm.base import PREFIX, THEN, ToolSpec

#: Longest string the model may write in one argument.
MAX_STRING_LENGTH = 2000

#: Keywords kept; everything else (title, description, default, format, pattern, examples,
#: numeric bounds the converter ignores anyway, ...) is dropped.
_KEPT = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "anyOf",
    "oneOf",
    "allOf",
    "enum",
    "const",
    "minLength",
    "maxLength",
    PREFIX,
    THEN,
}
#: Keywords that only mean something for one type.
_OWNED = (
    ({"minLength", "maxLength", PREFIX, THEN}, "string"),
    ({"items", "prefixItems", "minItems", "maxItems"}, "array"),
    ({"properties", "required", "additionalProperties"}, "object"),
)


class SchemaError(ValueError):
    """A tool schema the grammar cannot express (e.g. a `$ref` that does not resolve)."""


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise SchemaError(f"only local $refs are supported, got {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise SchemaError(f"$ref {ref!r} does not resolve")
        node = node[part]
    if not isinstance(node, dict):
        raise SchemaError(f"$ref {ref!r} is not a schema")
    return node


def simplify(
    schema: dict[str, Any],
    *,
    max_string_length: int = MAX_STRING_LENGTH,
    root: dict[str, Any] | None = None,
    _seen: tuple[str, ...] = (),
) -> dict[str, Any]:
    """`schema` with `$ref`s inlined, unsupported keywords dropped and strings bounded."""
    root = schema if root is None else root
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref in _seen:
            raise SchemaError(f"recursive $ref {ref!r} cannot become a grammar")
        target = _resolve(ref, root)
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return simplify(merged, max_string_length=max_string_length, root=root, _seen=(*_seen, ref))

    def sub(s: dict[str, Any]) -> dict[str, Any]:
        return simplify(s, max_string_length=max_string_length, root=root, _seen=_seen)

    types = schema.get("type")
    if isinstance(types, list):  # ["string", "null"] → anyOf, so each branch keeps its bounds
        rest = {k: v for k, v in schema.items() if k != "type"}
        return {"anyOf": [sub({**rest, "type": t}) for t in types]}

    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in _KEPT:
            continue
        if key == "properties":
            out[key] = {name: sub(s) for name, s in value.items()}
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            out[key] = [sub(s) for s in value]
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = sub(value)
        else:
            out[key] = copy.deepcopy(value)
    kind = out.get("type")
    for keys, owner in _OWNED:  # e.g. after a type list was split: no maxLength on null
        if kind is not None and kind != owner:
            for key in keys & out.keys():
                del out[key]
    if kind == "string" and "enum" not in out and "const" not in out:
        out["maxLength"] = min(int(out.get("maxLength", max_string_length)), max_string_length)
    return out


#: Arguments that name something (a file, a symbol, a search) rather than hold code or
#: text: bounded to NAME_CHARS in the grammar. The 1.5B once wrote a whole file into a
#: `symbol` for four minutes, its output growing until the run's time was up.
NAME_ARGUMENTS = frozenset(["path", "symbol", "new_name", "query", "name"])
NAME_CHARS = 200


def short_names(args: dict[str, Any]) -> dict[str, Any]:
    """`args` (a simplified object schema) with its naming arguments bounded to NAME_CHARS."""
    for name, prop in (args.get("properties") or {}).items():
        if name in NAME_ARGUMENTS and prop.get("type") == "string" and "enum" not in prop and "const" not in prop:
            prop["maxLength"] = min(int(prop.get("maxLength", NAME_CHARS)), NAME_CHARS)
    return args


def tool_name(tool: ToolSpec) -> str:
    return str(tool["function"]["name"])


def tool_call_schema(
    tools: list[ToolSpec], *, max_string_length: int = MAX_STRING_LENGTH
) -> dict[str, Any]:
    """The acting turn's output schema: one branch per offered tool."""
    if not tools:
        raise SchemaError("an acting turn needs at least one tool")
    branches = []
    for tool in tools:
        params = tool["function"].get("parameters") or {"type": "object", "properties": {}}
        args = short_names(simplify(params, max_string_length=max_string_length))
        if args.get("type") == "object" and "additionalProperties" not in args:
            args["additionalProperties"] = False
        branches.append(
            {
                "type": "object",
                "properties": {"name": {"const": tool_name(tool)}, "arguments": args},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


def turn_schema(
    tools: list[ToolSpec] | None, json_schema: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The schema of a turn: tool calls when tools are offered, else `json_schema` (the
    planning turn passes TASKS_SCHEMA), else None (free text, e.g. a summary)."""
    if tools:
        return tool_call_schema(tools)
    return simplify(json_schema) if json_schema else None


def required_only(tools: list[ToolSpec]) -> list[ToolSpec]:
    """The tools with their optional arguments left out (of the prompt and the grammar).

    Small models fill in every argument a grammar allows (`start_line: 1, end_line: 1`
    on every read, a made-up `reason`), so they are offered the required ones only.
    """
    out: list[ToolSpec] = []
    for tool in tools:
        fn = tool["function"]
        params = fn.get("parameters") or {}
        required = set(params.get("required") or [])
        props = {k: v for k, v in (params.get("properties") or {}).items() if k in required}
        out.append({**tool, "function": {**fn, "parameters": {**params, "properties": props}}})
    return out
