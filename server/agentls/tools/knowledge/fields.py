"""String types for knowledge tool inputs: text that may not hold a NUL byte.

A NUL in an argument is a malformed argument (a `validation` error), caught by pydantic
before the tool runs. Must not know: any particular tool.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain a NUL byte")
    return value


#: Any text without NUL.
Text = Annotated[str, AfterValidator(_no_nul)]
#: Text without NUL that holds something besides whitespace.
NonBlankText = Annotated[str, Field(min_length=1, pattern=r"\S"), AfterValidator(_no_nul)]
