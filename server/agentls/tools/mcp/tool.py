"""An MCP server's tool as an agentls `Tool`, so it runs through the executor like any other:
`mcp__<server>__<tool>`, category `mcp`, the server's description, its input schema as
the tool's (arguments are checked against it with jsonschema before the server is called:
a mismatch is a `validation` error), the output `{content, structured_content, truncated}`
(result.py; `structured_content` carries the server's output schema when it gave one),
and the permission flags of the server's `mcpServers` entry.

Each tool is a class made from the server's listing (the registry reads a tool's schema
from its class); the instance holds the connection and the function that runs a coroutine
on the provider's loop. `ServerEntry` stands for a server whose tools are absent (it is
starting, failed or stopped): listed, disabled, with the reason.
Must not know: how sessions are kept (connection.py), the registry, the agent.
"""

from __future__ import annotations

import concurrent.futures
import copy
import hashlib
import re
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput
from agentls.tools.mcp.result import McpOutput, to_output
from agentls.tools.permissions import Permission

PREFIX = "mcp__"
#: Longer names are shortened with a hash (OpenAI-style function names stop at 64).
MAX_NAME = 64
#: At most this many schema mismatches are named in a validation error.
MAX_PROBLEMS = 5
CALL_TIMEOUT_S = 120.0  # the call, and starting a crashed server again first

Submit = Callable[[Coroutine[Any, Any, Any]], "concurrent.futures.Future[Any]"]


def tool_name(server: str, remote: str) -> str:
    """`mcp__<server>__<tool>`, the tool's name made of `[A-Za-z0-9_-]` and at most MAX_NAME long."""
    name = f"{PREFIX}{server}__{re.sub(r'[^A-Za-z0-9_-]', '_', remote)}"
    if len(name) > MAX_NAME:
        digest = hashlib.sha256(remote.encode()).hexdigest()[:8]
        name = f"{name[: MAX_NAME - 9]}_{digest}"
    return name


class McpInput(BaseModel):
    """Arguments checked against the server's input schema (any keys it allows)."""

    model_config = ConfigDict(extra="allow")
    input_schema: ClassVar[dict[str, Any]] = {"type": "object"}
    checker: ClassVar[Any] = None  # a jsonschema validator of input_schema

    @model_validator(mode="before")
    @classmethod
    def _fits_schema(cls, data: Any) -> Any:
        if cls.checker is not None:
            problems = sorted(
                cls.checker.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
            )
            if problems:
                raise ValueError("; ".join(_problem(e) for e in problems[:MAX_PROBLEMS]))
        return data

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return copy.deepcopy(cls.input_schema)

    def arguments(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def _problem(error: Any) -> str:
    message = error.message if len(error.message) <= 200 else error.message[:199] + "…"
    path = ".".join(str(p) for p in error.absolute_path)
    return f"{path!r}: {message}" if path else message


class McpTool(Tool):
    """A tool of an MCP server (the class `tool_class` makes holds its schema)."""

    category = "mcp"
    Input = McpInput
    Output = McpOutput
    timeout_s = CALL_TIMEOUT_S
    server: ClassVar[str] = ""
    remote: ClassVar[str] = ""  # the tool's name on its server
    summary: ClassVar[str] = ""
    schema_problem: ClassVar[str | None] = None

    def __init__(self, connection: Any, submit: Submit) -> None:
        self.connection = connection
        self._submit = submit

    @classmethod
    def description(cls) -> str:
        return cls.summary

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        if self.schema_problem is not None:
            return False, self.schema_problem
        if not self.connection.usable:
            return (
                False,
                self.connection.reason
                or f"the MCP server {self.server!r} is {self.connection.state}",
            )
        return True, None

    def execute(self, input: McpInput, ctx: ToolContext) -> dict[str, Any]:
        if self.schema_problem is not None:
            raise ToolError("runtime", self.schema_problem, self.name)
        future = self._submit(self.connection.call(self.remote, input.arguments()))

        def stop() -> None:
            future.cancel()

        unsubscribe = ctx.cancel.subscribe(stop)
        try:
            result = future.result()
        except concurrent.futures.CancelledError:
            raise ToolError("runtime", f"{self.name} was cancelled", self.name) from None
        finally:
            unsubscribe()
        return to_output(result).model_dump(mode="json")


def tool_class(server: str, spec: Any, permissions: frozenset[Permission]) -> type[McpTool]:
    """The McpTool class of the tool `spec` (an `mcp_types.Tool`) of `server`."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import Draft202012Validator, validator_for

    name = tool_name(server, spec.name)
    schema = spec.input_schema if isinstance(spec.input_schema, dict) else {"type": "object"}
    problem: str | None = None
    checker: Any = None
    try:
        kind = validator_for(schema, default=Draft202012Validator)
        kind.check_schema(schema)
        checker = kind(schema)
    except (SchemaError, TypeError, ValueError) as exc:
        why = getattr(exc, "message", exc)
        problem = f"the MCP server {server!r} gave {spec.name!r} an input schema that is not valid JSON Schema: {why}"

    class Inputs(McpInput):
        input_schema = schema
        checker = None

    Inputs.checker = checker
    outputs = _outputs(spec.output_schema) if isinstance(spec.output_schema, dict) else McpOutput

    class Made(McpTool):
        Input = Inputs
        Output = outputs
        remote = spec.name
        summary = spec.description or spec.title or spec.name
        schema_problem = problem

    Made.name, Made.server, Made.permissions = name, server, permissions
    Made.__name__ = Made.__qualname__ = name
    return Made


def _outputs(output_schema: dict[str, Any]) -> type[McpOutput]:
    """McpOutput whose schema gives `structured_content` the server's output schema."""

    class Outputs(McpOutput):
        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            schema = McpOutput.model_json_schema()
            schema["properties"]["structured_content"] = copy.deepcopy(output_schema)
            return schema

    return Outputs


class _NoInput(ToolInput):
    pass


class ServerEntry(Tool):
    """An MCP server whose tools are absent: listed disabled, with the reason."""

    category = "mcp"
    Input = _NoInput
    Output = McpOutput
    server: ClassVar[str] = ""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @classmethod
    def description(cls) -> str:
        return f"The MCP server {cls.server!r}; its tools are listed here when it runs."

    def _why(self) -> str:
        if self.connection.state in ("idle", "starting"):
            return f"the MCP server {self.server!r} is starting"
        if self.connection.usable:
            return f"the MCP server {self.server!r} offers no tools"
        return (
            self.connection.reason or f"the MCP server {self.server!r} is {self.connection.state}"
        )

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        return False, self._why()

    def execute(self, input: _NoInput, ctx: ToolContext) -> dict[str, Any]:
        raise ToolError("runtime", self._why(), self.name)


def entry_class(server: str, permissions: frozenset[Permission]) -> type[ServerEntry]:
    """The ServerEntry class of `server`, named `mcp__<server>`."""

    class Made(ServerEntry):
        pass

    Made.name, Made.server, Made.permissions = f"{PREFIX}{server}", server, permissions
    Made.__name__ = Made.__qualname__ = Made.name
    return Made
