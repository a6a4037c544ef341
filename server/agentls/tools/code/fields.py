"""Argument types shared by the code analysis tools: paths and symbol names.

A NUL byte or a blank symbol is a malformed argument (a `validation` error) caught by
pydantic before the tool runs. Must not know: any particular tool, the index.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from agentls.tools.fields import no_nul

#: A path relative to the workspace root, without NUL (confinement is checked later).
PathText = Annotated[str, Field(min_length=1), AfterValidator(no_nul)]
#: An identifier or dotted name as the model writes it.
SymbolText = Annotated[
    str, Field(min_length=1, max_length=256, pattern=r"\S"), AfterValidator(no_nul)
]
