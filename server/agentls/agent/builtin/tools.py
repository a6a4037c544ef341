"""The tools component: every tool of the registry as a command, run through the executor.

Each command's call goes through `ToolExecutor.execute_async`, so validation, the
permission check, the deadline and the audit log apply to the agent exactly as to any
other caller; the result is the executor's `ToolResult`. A tool the run's mode (or the
tool's own availability check) rules out is still listed, disabled, with the reason —
the loop does not offer it, but a call to it still reaches the executor, which answers
with its `permission` error rather than "unknown tool". Arguments are checked against the
tool's pydantic input model before the call (a failure there is a bad reply).
Must not know: any particular tool, the loop, models, LSP.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from agentls.agent.command import Command
from agentls.agent.protocols import CommandProvider
from agentls.tools.base import Tool, ToolContext
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.registry import ToolRegistry


def tool_command(tool: Tool, executor: ToolExecutor, ctx: ToolContext) -> Command:
    """`tool` as a command whose call runs it through `executor` with `ctx`."""

    async def call(**arguments: Any) -> ToolResult:
        return await executor.execute_async(tool.name, arguments, ctx)

    return Command(
        name=tool.name,
        description=tool.description(),
        parameters=tool.Input.model_json_schema(),
        method=call,
        permissions=tool.permissions,
        arguments_model=tool.Input,
        tool=tool.name,
        category=tool.category,
    )


class ToolsComponent(CommandProvider):
    def __init__(self, registry: ToolRegistry, executor: ToolExecutor, ctx: ToolContext) -> None:
        super().__init__()
        self.registry = registry
        self.executor = executor
        self.ctx = ctx
        self._commands: dict[str, Command] = {}

    def get_commands(self) -> Iterator[Command]:
        for tool in self.registry.list():
            base = self._commands.get(tool.name)
            if base is None:
                base = self._commands[tool.name] = tool_command(tool, self.executor, self.ctx)
            ok, reason = self.registry.availability(tool, self.ctx.permissions, self.ctx)
            yield base if ok else dataclasses.replace(base, enabled=False, disabled_reason=reason)
