"""The system component: the run's constraints and best practices, and the `finish` command.

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
from agentls.agent.protocols import CommandProvider, DirectiveProvider
from agentls.tools.permissions import Permission


class SystemComponent(DirectiveProvider, CommandProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run

    def get_constraints(self) -> Iterator[str]:
        yield "Work only inside the workspace: paths outside it are refused."
        # the same on every turn, so a model's cached prompt prefix survives turn changes
        yield "When tools are offered, each reply calls exactly one tool."
        perms = self.run.tools.permissions
        if Permission.FILESYSTEM_WRITE in perms:
            yield (
                "File changes are proposals the user reviews: a tool result says whether a "
                "change was applied, rejected (with the user's comment) or is still pending."
            )
        else:
            yield "This run may not change files."
        if Permission.SHELL_EXECUTION not in perms:
            yield "This run may not run shell commands."

    def get_resources(self) -> Iterator[str]:
        yield "The tools offered with each turn; their results come back as tool messages."

    def get_best_practices(self) -> Iterator[str]:
        yield "Look before you act: the files the task names are shown to you; list, search and read the others you need."
        yield "Prefer small, targeted edits to rewriting whole files (a stub to fill in may be written whole)."
        yield "When a change is rejected, follow the user's comment before trying again."
        yield "Do not repeat a call with the same arguments: its result will not change."
        yield "Call finish with a short summary as soon as the task is done."

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
