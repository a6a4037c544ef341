"""String types for knowledge tool inputs: text that may not hold a NUL byte.

A NUL in an argument is a malformed argument (a `validation` error), caught by pydantic
before the tool runs. Must not know: any particular tool.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from agentls.tools.fields import no_nul

#: Any text without NUL.
Text = Annotated[str, AfterValidator(no_nul)]
#: Text without NUL that holds something besides whitespace.
NonBlankText = Annotated[str, Field(min_length=1, pattern=r"\S"), AfterValidator(no_nul)]
