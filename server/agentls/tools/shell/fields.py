"""Argument types shared by the shell tools: command text and timeouts.

A NUL byte or a blank command is a malformed argument (a `validation` error) caught by
pydantic before anything runs. Must not know: any particular tool, processes.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from agentls.tools.fields import no_nul

#: A relative path (or None for the default) without NUL.
PathText = Annotated[str, AfterValidator(no_nul)]
#: A shell command: not blank, no NUL.
CommandText = Annotated[str, Field(min_length=1, pattern=r"\S"), AfterValidator(no_nul)]

DEFAULT_TIMEOUT_S = 60.0
MAX_TIMEOUT_S = 600.0
#: Extra time the executor grants beyond a process timeout: scratch copy, killing the tree.
TIMEOUT_MARGIN_S = 30.0
