"""The tool registry: which tools exist, their schemas, and which a permission set enables.

`default_registry()` discovers the built-in tools: each category package
(`agentls.tools.<category>`) lists its tool classes explicitly in `TOOLS`. A category
package that is missing or fails to import is logged and skipped, so one broken category
never takes the others down. Tools that come and go with settings (the MCP servers' tools)
come from a `ToolSource` added with `add_source`: the registry asks it for the tools whose
names start with its prefix, after its own. Must not know: any particular tool or source,
the agent, LSP.
"""

from __future__ import annotations

import builtins
import importlib
import logging
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from agentls.tools.base import Tool, ToolContext
from agentls.tools.permissions import PermissionSet

log = logging.getLogger(__name__)

#: Category packages searched by `default_registry`, in listing order.
CATEGORIES: tuple[str, ...] = ("filesystem", "git", "shell", "code", "knowledge", "web", "system")


class ToolSource(Protocol):
    """Tools the registry does not hold itself, named `<prefix>…`."""

    prefix: str

    def tools(self) -> builtins.list[Tool]:
        """The tools now (listing may start what provides them: bounded)."""
        ...

    def tool(self, name: str) -> Tool | None:
        """The tool `name`, or None."""
        ...


class ToolRegistry:
    """Tools by name. Registration order is listing order; a source's tools come after."""

    def __init__(self, tools: Iterable[type[Tool] | Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._sources: builtins.list[ToolSource] = []
        self._schemas: dict[str, dict[str, Any]] = {}
        #: Problems met while discovering tools (category failed to import, bad entry, ...).
        self.problems: builtins.list[str] = []
        for tool in tools:
            self.register(tool)

    def register(self, tool: type[Tool] | Tool) -> Tool:
        """Add a tool class (instantiated here) or instance; a duplicate name is an error."""
        instance = tool() if isinstance(tool, type) else tool
        if not isinstance(instance, Tool):
            raise TypeError(f"{tool!r} is not a Tool")
        name = getattr(instance, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"{type(instance).__name__} has no tool name")
        if name in self._tools:
            raise ValueError(f"a tool named {name!r} is already registered")
        self._tools[name] = instance
        return instance

    def add_source(self, source: ToolSource) -> None:
        """List `source`'s tools after the registry's own; a name both have is the registry's."""
        self._sources.append(source)

    def get(self, name: str) -> Tool | None:
        found = self._tools.get(name)
        if found is None and isinstance(name, str):
            for source in self._sources:
                if name.startswith(source.prefix) and (found := source.tool(name)) is not None:
                    break
        return found

    def list(self) -> list[Tool]:
        out = list(self._tools.values())
        for source in self._sources:
            out.extend(t for t in source.tools() if t.name not in self._tools)
        return out

    @property
    def names(self) -> builtins.list[str]:
        return [t.name for t in self.list()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.list())

    def __len__(self) -> int:
        return len(self.list())

    def availability(
        self, tool: Tool, permissions: PermissionSet | None = None, ctx: ToolContext | None = None
    ) -> tuple[bool, str | None]:
        """Whether `tool` may be offered: its own `enabled(ctx)`, then the permission set."""
        try:
            ok, reason = tool.enabled(ctx)
        except Exception as exc:  # a broken check disables the tool, never the listing
            log.warning("enabled() of tool %s failed: %s", tool.name, exc)
            return False, f"its availability check failed: {exc}"
        if not ok:
            return False, reason or "it is not available here"
        if permissions is not None and not permissions.allows(tool.permissions):
            missing = ", ".join(permissions.missing(tool.permissions))
            where = f"mode {permissions.mode!r}" if permissions.mode else "this permission set"
            return False, f"it needs {missing}, which {where} does not grant"
        return True, None

    def enabled_tools(
        self, permissions: PermissionSet | None = None, ctx: ToolContext | None = None
    ) -> builtins.list[Tool]:
        """The tools a run with these permissions is offered."""
        return [t for t in self.list() if self.availability(t, permissions, ctx)[0]]

    def schemas(
        self, permissions: PermissionSet | None = None, ctx: ToolContext | None = None
    ) -> builtins.list[dict[str, Any]]:
        """The `agent/tools` entries: schema, permissions, version, enabled, disabledReason."""
        out: builtins.list[dict[str, Any]] = []
        for tool in self.list():
            own = self._tools.get(tool.name) is tool
            schema = self._schemas.get(tool.name) if own else None
            if schema is None:
                schema = tool.schema()
                if own:
                    self._schemas[tool.name] = schema
            ok, reason = self.availability(tool, permissions, ctx)
            out.append({**schema, "enabled": ok, "disabledReason": reason})
        return out


def _category_tools(category: str) -> list[Any]:
    module = importlib.import_module(f"{__package__}.{category}")
    tools = getattr(module, "TOOLS", None)
    if tools is None:
        raise LookupError(f"package {module.__name__} does not export TOOLS")
    return list(tools)


def default_registry(categories: Iterable[str] = CATEGORIES) -> ToolRegistry:
    """A registry of the built-in tools, skipping (and logging) categories that fail."""
    registry = ToolRegistry()
    for category in categories:
        try:
            tools = _category_tools(category)
        except Exception as exc:  # missing package, import error, no TOOLS
            problem = f"tool category {category!r} skipped: {type(exc).__name__}: {exc}"
            log.warning("%s", problem)
            registry.problems.append(problem)
            continue
        for tool in tools:
            try:
                registry.register(tool)
            except Exception as exc:
                problem = f"tool {tool!r} of category {category!r} skipped: {exc}"
                log.warning("%s", problem)
                registry.problems.append(problem)
    return registry
