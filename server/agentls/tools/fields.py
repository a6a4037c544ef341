"""String argument types every tool shares: text without NUL bytes, non-blank text.

A malformed argument is a `validation` error caught by pydantic before the tool runs
(the executor checks NULs too; these make a directly built input fail the same way).
Category modules (`shell/fields.py`, `git/fields.py`, …) build their types from these.
Must not know: any particular tool.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field


def no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain a NUL byte")
    return value


#: Any text without NUL.
NulFree = Annotated[str, AfterValidator(no_nul)]
#: Text without NUL that holds something besides whitespace.
NonBlank = Annotated[str, Field(min_length=1, pattern=r"\S"), AfterValidator(no_nul)]
