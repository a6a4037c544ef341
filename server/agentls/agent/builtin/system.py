"""The system component: the run's constraints and best practices, and the `finish` command.

The directives' text is in prompts/system.toml, chosen by the run's permissions.
`finish(summary)` ends the current task; its summary (a non-empty string) becomes the
task's result (the loop sees the `Finished` value it returns). It is offered in every
mode: it needs no permission.
Must not know: the loop's internals, particular tools' behaviour, LSP.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from pydantic import Field

from agentls.agent.actions import Finished
from agentls.agent.command import Command, command
from agentls.agent.context import RunContext
from agentls.agent.prompts import texts
from agentls.agent.protocols import CommandProvider, DirectiveProvider
from agentls.tools.permissions import Permission


class SystemComponent(DirectiveProvider, CommandProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run

    def get_constraints(self) -> Iterator[str]:
        text = texts("system")["constraints"]
        yield text["workspace"]
        # the same on every turn, so a model's cached prompt prefix survives turn changes
        yield text["one_call"]
        perms = self.run.tools.permissions
        yield text["proposals"] if Permission.FILESYSTEM_WRITE in perms else text["no_writes"]
        if Permission.SHELL_EXECUTION not in perms:
            yield text["no_shell"]

    def get_resources(self) -> Iterator[str]:
        yield from texts("system")["resources"]

    def get_best_practices(self) -> Iterator[str]:
        yield from texts("system")["best_practices"]

    def get_commands(self) -> Iterator[Command]:
        yield self.finish

    @command
    def finish(self, summary: Annotated[str, Field(min_length=1)]) -> Finished:
        """Finish the current task: call this when it is done, or cannot be done, with a
        short summary of the result.

        Args:
            summary: What was done (or why it cannot be done), for the user.
        """
        return Finished(summary.strip())
