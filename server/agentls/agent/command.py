"""Commands: what the model may call. The `@command` decorator and the `Command` model.

`@command` makes a function or method a `Command`: the name defaults to the function's
name, the description to its docstring before `Args:`/`Returns:`, and the parameters are
the JSON Schema of a pydantic model built from the signature (unknown arguments forbidden;
each argument described by the docstring's `Args:` section, constrained by an
`Annotated[..., Field(...)]`). A parameter without an annotation, `*args`, `**kwargs` or a
positional-only one is a `CommandDefinitionError`. A decorated method is a descriptor:
`self.finish` is a `Command` bound to `self`. `Command.check(arguments)` validates with the
command's pydantic model (a registry tool's: the tool's input model) and says what is
wrong as the tool executor does.
Must not know: the loop, the tool registry, models, LSP.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

from agentls.llm.base import ToolSpec
from agentls.tools.executor import describe_validation_error
from agentls.tools.permissions import Permission

JSONSchema = dict[str, Any]
_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Raises|Yields|Example|Examples):\s*$")
_ARG_LINE = re.compile(r"^\s*\*{0,2}(\w+)(?:\s*\([^)]*\))?\s*:\s*(.*)$")


class CommandDefinitionError(TypeError):
    """A `@command` whose signature cannot be offered to a model."""


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
    arguments_model: type[BaseModel] | None = None  # what `check` validates with
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
        try:
            if self.arguments_model is not None:
                self.arguments_model.model_validate(arguments)
        except ValidationError as exc:
            return describe_validation_error(exc)
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.method(*args, **kwargs)

    def __get__(self, instance: Any, owner: type | None = None) -> Command:
        if instance is None or not self.bindable:
            return self
        bound = self.method.__get__(instance, owner)
        return dataclasses.replace(self, method=bound, bindable=False)


class _Schema(GenerateJsonSchema):
    """Keys in the order they are built (`type` first), no titles made of names."""

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        return value

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


@overload
def command(func: Callable[..., Any], /) -> Command: ...
@overload
def command(
    *, name: str | None = None, description: str | None = None
) -> Callable[[Callable[..., Any]], Command]: ...
def command(
    func: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
) -> Command | Callable[[Callable[..., Any]], Command]:
    """Make a function a `Command` (bare `@command`, or with a name or description)."""

    def wrap(fn: Callable[..., Any]) -> Command:
        doc = inspect.getdoc(fn) or ""
        model, bindable = _arguments_model(fn, _arg_docs(doc))
        schema = model.model_json_schema(schema_generator=_Schema)  # additionalProperties: false
        schema.pop("title", None)  # the function's name: the command's already
        return Command(
            name=name or fn.__name__,
            description=_summary(doc) if description is None else description,
            parameters=schema,
            method=fn,
            arguments_model=model,
            bindable=bindable,
        )

    return wrap(func) if func is not None else wrap


def _arguments_model(fn: Callable[..., Any], docs: dict[str, str]) -> tuple[type[BaseModel], bool]:
    """The model of the arguments a call fills, and whether the first parameter is self/cls."""
    params = list(inspect.signature(fn).parameters.values())
    bindable = bool(params) and params[0].name in ("self", "cls")
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:
        raise CommandDefinitionError(f"command {fn.__name__}: bad annotations: {exc}") from exc
    fields: dict[str, Any] = {}
    for p in params[bindable:]:
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            kind = f"{p.kind.description} parameter {p.name!r}"
            raise CommandDefinitionError(f"command {fn.__name__}: {kind} cannot be given by name")
        if p.name not in hints:
            raise CommandDefinitionError(f"command {fn.__name__}: {p.name!r} has no annotation")
        default = ... if p.default is p.empty else p.default
        described: dict[str, Any] = {"description": docs[p.name]} if p.name in docs else {}
        fields[p.name] = (hints[p.name], Field(default, **described))
    return create_model(fn.__name__, __config__=ConfigDict(extra="forbid"), **fields), bindable


def _summary(doc: str) -> str:
    """The docstring before its first section (`Args:`, `Returns:`, ...)."""
    lines = doc.splitlines()
    end = next((i for i, line in enumerate(lines) if _SECTION.match(line)), len(lines))
    return "\n".join(lines[:end]).strip()


def _arg_docs(doc: str) -> dict[str, str]:
    """Descriptions from a Google-style `Args:` section."""
    out: dict[str, str] = {}
    in_args, current, indent = False, None, None
    for line in doc.splitlines():
        section = _SECTION.match(line)
        if section:
            in_args, current = section.group(1) in ("Args", "Arguments"), None
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
