"""Commands: what the model may call. The `@command` decorator and the `Command` model.

`@command` turns a function or method into a `Command`: the name defaults to the function's
name, the description to its docstring before `Args:`/`Returns:`, and the parameters (a
JSON Schema object) are either given to the decorator — a full object schema, or Forge
style `{name: {type, description, required?}}` — or derived from the signature's type
annotations (via pydantic), with per-argument descriptions taken from the `Args:` section.
Given parameters are checked against the signature when the decorator runs: a parameter
missing from the schema, a schema property the function does not take, or a required
parameter the schema makes optional is a `CommandDefinitionError`.

A decorated method is a descriptor: `self.finish` is a `Command` bound to `self`.
`Command.check(arguments)` checks a call's arguments against the schema (a JSON Schema
subset: types, required, unknown keys, enum, anyOf, string lengths, array items), or
with the command's own validator (tools use their pydantic model).
Must not know: the loop, the tool registry, models, LSP.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, overload

from pydantic import TypeAdapter

from agentls.llm.base import ToolSpec
from agentls.tools.permissions import Permission

JSONSchema = dict[str, Any]
Validator = Callable[[dict[str, Any]], str | None]
_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Raises|Yields|Example|Examples):\s*$")
_ARG_LINE = re.compile(r"^\s*\*{0,2}(\w+)(?:\s*\([^)]*\))?\s*:\s*(.*)$")


class CommandDefinitionError(TypeError):
    """A `@command` whose schema does not match its function."""


@dataclass(eq=False)
class Command:
    """One callable command as the model sees it."""

    name: str
    description: str
    parameters: JSONSchema
    method: Callable[..., Any]
    permissions: frozenset[Permission] = frozenset()
    enabled: bool | Callable[[], bool] = True
    disabled_reason: str | None = None
    validator: Validator | None = None
    tool: str | None = None  # the registry tool this command adapts, if any
    category: str | None = None  # that tool's category
    bindable: bool = field(default=False, repr=False)  # the method's first parameter is self

    def is_enabled(self) -> bool:
        return bool(self.enabled() if callable(self.enabled) else self.enabled)

    def spec(self) -> ToolSpec:
        """The OpenAI `tools` entry."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def check(self, arguments: dict[str, Any]) -> str | None:
        """Why `arguments` do not fit the parameters, or None."""
        if self.validator is not None:
            return self.validator(arguments)
        return check_value(self.parameters, arguments, "")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.method(*args, **kwargs)

    def __get__(self, instance: Any, owner: type | None = None) -> Command:
        if instance is None or not self.bindable:
            return self
        bound = self.method.__get__(instance, owner)
        return dataclasses.replace(self, method=bound, bindable=False)


# --- the decorator -------------------------------------------------------------------
@overload
def command(func: Callable[..., Any], /) -> Command: ...
@overload
def command(
    func: None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    parameters: JSONSchema | None = None,
    permissions: Iterable[Permission] = (),
    enabled: bool | Callable[[], bool] = True,
    disabled_reason: str | None = None,
) -> Callable[[Callable[..., Any]], Command]: ...
def command(
    func: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    parameters: JSONSchema | None = None,
    permissions: Iterable[Permission] = (),
    enabled: bool | Callable[[], bool] = True,
    disabled_reason: str | None = None,
) -> Command | Callable[[Callable[..., Any]], Command]:
    """Make a function a `Command` (usable bare, `@command`, or with options)."""

    def wrap(fn: Callable[..., Any]) -> Command:
        doc = inspect.getdoc(fn) or ""
        params, bindable, has_kwargs = _signature_params(fn)
        if parameters is None:
            schema = _derived_schema(fn, params, _arg_docs(doc))
        else:
            schema = _given_schema(fn.__name__, parameters, params, has_kwargs)
        return Command(
            name=name or fn.__name__,
            description=description if description is not None else _summary(doc),
            parameters=schema,
            method=fn,
            permissions=frozenset(permissions),
            enabled=enabled,
            disabled_reason=disabled_reason,
            bindable=bindable,
        )

    return wrap(func) if func is not None else wrap


def _summary(doc: str) -> str:
    lines: list[str] = []
    for line in doc.splitlines():
        if _SECTION.match(line):
            break
        lines.append(line)
    return "\n".join(lines).strip()


def _arg_docs(doc: str) -> dict[str, str]:
    """Descriptions from a Google-style `Args:` section."""
    out: dict[str, str] = {}
    in_args, current, indent = False, None, None
    for line in doc.splitlines():
        section = _SECTION.match(line)
        if section:
            in_args = section.group(1) in ("Args", "Arguments")
            current = None
            continue
        if not in_args or not line.strip():
            continue
        width = len(line) - len(line.lstrip())
        match = _ARG_LINE.match(line)
        if match and (indent is None or width <= indent):
            indent, current = width, match.group(1)
            out[current] = match.group(2).strip()
        elif current is not None:
            out[current] = f"{out[current]} {line.strip()}".strip()
    return out


def _signature_params(fn: Callable[..., Any]) -> tuple[list[inspect.Parameter], bool, bool]:
    """The parameters the model fills, whether the first one is self/cls, and **kwargs."""
    params = list(inspect.signature(fn).parameters.values())
    bindable = bool(params) and params[0].name in ("self", "cls")
    if bindable:
        params = params[1:]
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        raise CommandDefinitionError(f"command {fn.__name__}: *args cannot be filled by name")
    if any(p.kind is inspect.Parameter.POSITIONAL_ONLY for p in params):
        raise CommandDefinitionError(f"command {fn.__name__}: positional-only parameters")
    has_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
    return [p for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD], bindable, has_kwargs


def _derived_schema(
    fn: Callable[..., Any], params: list[inspect.Parameter], docs: dict[str, str]
) -> JSONSchema:
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:
        raise CommandDefinitionError(f"command {fn.__name__}: bad annotations: {exc}") from exc
    properties: dict[str, JSONSchema] = {}
    required: list[str] = []
    for p in params:
        if p.name not in hints:
            raise CommandDefinitionError(
                f"command {fn.__name__}: parameter {p.name!r} has no annotation and no "
                "schema was given"
            )
        prop = dict(TypeAdapter(hints[p.name]).json_schema())
        if p.name in docs:
            prop["description"] = docs[p.name]
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
        elif _jsonable(p.default):
            prop["default"] = p.default
        properties[p.name] = prop
    return _object(properties, required)


def _given_schema(
    fname: str, given: JSONSchema, params: list[inspect.Parameter], has_kwargs: bool
) -> JSONSchema:
    full = given.get("type") == "object" and isinstance(given.get("properties"), dict)
    if full:
        properties = {k: dict(v) for k, v in given["properties"].items()}
        required = list(given.get("required", []))
        explicit = set(required)
    else:
        properties, required, explicit = {}, [], set()
        for key, prop in given.items():
            if not isinstance(prop, dict):
                raise CommandDefinitionError(f"command {fname}: schema of {key!r} is not an object")
            prop = dict(prop)
            flag = prop.pop("required", None)
            if flag is not None:
                explicit.add(key)
                if flag:
                    required.append(key)
            properties[key] = prop
    names = {p.name for p in params}
    missing = [p.name for p in params if p.name not in properties]
    extra = [k for k in properties if k not in names]
    problems: list[str] = []
    if missing:
        problems.append(f"parameter(s) {', '.join(missing)} missing from the schema")
    if extra and not has_kwargs:
        problems.append(f"schema propert(ies) {', '.join(extra)} not taken by the function")
    for p in params:
        no_default = p.default is inspect.Parameter.empty
        if no_default and p.name in properties and p.name not in required:
            if full or p.name in explicit:
                problems.append(f"parameter {p.name!r} has no default but is not required")
            else:
                required.append(p.name)
    if problems:
        raise CommandDefinitionError(f"command {fname}: " + "; ".join(problems))
    schema = _object(properties, required)
    if full and "additionalProperties" in given:
        schema["additionalProperties"] = given["additionalProperties"]
    return schema


def _object(properties: dict[str, JSONSchema], required: list[str]) -> JSONSchema:
    schema: JSONSchema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _jsonable(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


# --- checking arguments --------------------------------------------------------------
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def check_value(schema: JSONSchema, value: Any, where: str) -> str | None:
    """Why `value` does not fit `schema` (a JSON Schema subset), or None."""
    at = f"{where!r}: " if where else ""
    if "anyOf" in schema or "oneOf" in schema:
        branches = schema.get("anyOf") or schema.get("oneOf") or []
        if not any(check_value(b, value, where) is None for b in branches):
            return f"{at}{_short(value)} matches none of the allowed forms"
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    if kinds and not any(_TYPES.get(k, lambda v: True)(value) for k in kinds):
        return f"{at}expected {' or '.join(kinds)}, got {_short(value)}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{at}must be one of {schema['enum']!r}, got {_short(value)}"
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return f"{at}must have at least {schema['minLength']} characters"
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return f"{at}must have at most {schema['maxLength']} characters"
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            problem = check_value(schema["items"], item, f"{where}[{i}]")
            if problem:
                return problem
    if isinstance(value, dict) and (kind == "object" or "properties" in schema):
        return _check_object(schema, value, where)
    return None


def _check_object(schema: JSONSchema, value: dict[str, Any], where: str) -> str | None:
    props: dict[str, JSONSchema] = schema.get("properties", {})
    prefix = f"{where}." if where else ""
    missing = [k for k in schema.get("required", []) if k not in value]
    if missing:
        return f"missing required argument(s): {', '.join(prefix + k for k in missing)}"
    if schema.get("additionalProperties") is False:
        extra = [k for k in value if k not in props]
        if extra:
            known = ", ".join(props) or "none"
            return f"unknown argument(s): {', '.join(prefix + k for k in extra)} (known: {known})"
    for key, item in value.items():
        if key in props:
            problem = check_value(props[key], item, prefix + key)
            if problem:
                return problem
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
