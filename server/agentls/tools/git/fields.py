"""Argument types of the git tools: NUL-free paths, commit messages, branch names.

A malformed argument (NUL byte, blank message, a name git would refuse as a branch) is
a `validation` error caught by pydantic before git runs. The branch-name rules are
git-check-ref-format's. Must not know: any particular tool, GitPython.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

from agentls.tools.fields import no_nul

_BAD_REF_CHARS = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")


def branch_name_problem(name: str) -> str | None:
    """Why git would refuse `name` as a branch name, or None."""
    if not name:
        return "it is empty"
    if name in ("@", "HEAD") or name.startswith("-"):
        return "it is reserved or starts with '-'"
    if _BAD_REF_CHARS.search(name):
        return "it contains a space, a control character or one of ~^:?*[\\"
    if ".." in name or "@{" in name or "//" in name:
        return "it contains '..', '@{' or '//'"
    if name.startswith("/") or name.endswith(("/", ".")):
        return "it starts or ends with '/' or ends with '.'"
    if any(part.startswith(".") or part.endswith(".lock") for part in name.split("/")):
        return "a component starts with '.' or ends with '.lock'"
    return None


def _branch_name(value: str) -> str:
    problem = branch_name_problem(value)
    if problem:
        raise ValueError(f"{value!r} is not a valid branch name: {problem}")
    return value


#: A workspace-relative path without NUL.
PathText = Annotated[str, AfterValidator(no_nul)]
#: A commit message: something besides whitespace, no NUL.
MessageText = Annotated[str, Field(min_length=1, pattern=r"\S"), AfterValidator(no_nul)]
#: A branch name git accepts.
BranchName = Annotated[str, AfterValidator(_branch_name)]
