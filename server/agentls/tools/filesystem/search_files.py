"""The `search_files` tool: lines matching a literal or a regex, across the workspace.

Uses ripgrep when it is on PATH, else a Python search over `FileWalker`; both see the
same files (.gitignore honoured, symlinks not followed, binary files skipped) and give
the same result shape. Must not know: the agent, LSP, other tools.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar, Literal

import pathspec
from pydantic import Field, field_validator, model_validator

from agentls.tools.base import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.filesystem import ripgrep
from agentls.tools.filesystem.content import target
from agentls.tools.permissions import READ, Permission
from agentls.workspace import FileWalker

MAX_MATCHES = 500
MAX_LINE_CHARS = 400
MAX_FILE_BYTES = 4 * 1024 * 1024


class SearchFilesInput(ToolInput):
    query: str = Field(
        min_length=1, description="Text to find (a regex when regex=true); one line."
    )
    path: str | None = Field(
        default=None, description="File or folder to search; default: everything."
    )
    regex: bool = Field(default=False, description="Treat query as a (Python) regular expression.")
    glob: str | None = Field(
        default=None, description="Only files matching this .gitignore-style glob, e.g. '*.py'."
    )

    @field_validator("query")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value:
            raise ValueError("the query must be a single line (matching is line by line)")
        return value

    @model_validator(mode="after")
    def _compiles(self) -> SearchFilesInput:
        if self.regex:
            try:
                re.compile(self.query)
            except re.error as exc:
                raise ValueError(f"'query' is not a valid regular expression ({exc})") from None
        return self


class SearchMatch(ToolOutput):
    path: str
    line: int = Field(description="0-based line number.")
    text: str


class SearchFilesOutput(ToolOutput):
    matches: list[SearchMatch]
    truncated: bool = Field(description=f"True when there were more than {MAX_MATCHES} matches.")
    engine: Literal["ripgrep", "python"]


class SearchFiles(Tool):
    """Find the lines of workspace files that contain a text (or match a regex).

    Literal and case-sensitive by default; regex=true takes a Python regular expression.
    Restrict with path (a file or folder) and glob (file-name pattern such as '*.py' or
    'src/**/*.ts'). Files ignored by .gitignore and binary files are skipped. Returns at most
    500 matches as {path, line (0-based), text}.
    """

    name = "search_files"
    category = "filesystem"
    permissions: ClassVar[frozenset[Permission]] = frozenset({READ})
    Input = SearchFilesInput
    Output = SearchFilesOutput
    timeout_s = 60.0

    def execute(self, input: SearchFilesInput, ctx: ToolContext) -> SearchFilesOutput:
        real, rel = target(ctx, input.path or ".")
        if not real.exists():
            raise ToolError("runtime", f"path not found: {rel}", self.name, path=rel)
        accept = _glob_filter(input.glob)
        rg = ripgrep.find_ripgrep()
        if rg is not None:
            try:
                hits = ripgrep.search(rg, ctx.root, rel, input.query, input.regex, ctx.cancel)
                matches, truncated = _collect(hits, accept)
                return SearchFilesOutput(matches=matches, truncated=truncated, engine="ripgrep")
            except ripgrep.RipgrepUnusable as exc:
                ctx.logger.debug("ripgrep could not search (%s); using the Python search", exc)
        matches, truncated = _collect(
            _python_search(ctx, real, rel, input.query, input.regex), accept
        )
        return SearchFilesOutput(matches=matches, truncated=truncated, engine="python")


def _glob_filter(glob: str | None) -> Callable[[str], bool]:
    if not glob:
        return lambda _path: True
    spec = pathspec.GitIgnoreSpec.from_lines([glob])
    return spec.match_file


def _collect(
    hits: Iterator[tuple[str, int, str]], accept: Callable[[str], bool]
) -> tuple[list[SearchMatch], bool]:
    matches: list[SearchMatch] = []
    try:
        for path, line, text in hits:
            if not accept(path):
                continue
            if len(matches) >= MAX_MATCHES:
                return matches, True
            matches.append(SearchMatch(path=path, line=line, text=text[:MAX_LINE_CHARS]))
    finally:
        close = getattr(hits, "close", None)
        if close is not None:
            close()
    return matches, False


def _python_search(
    ctx: ToolContext, real: Path, rel: str, query: str, regex: bool
) -> Iterator[tuple[str, int, str]]:
    if regex:
        pattern = re.compile(query)
        matches: Callable[[str], bool] = lambda line: pattern.search(line) is not None  # noqa: E731
    else:
        matches = lambda line: query in line  # noqa: E731
    if real.is_file():
        files: Iterator[str] = iter([rel])
    else:
        prefix = "" if rel == "." else rel + "/"
        files = (p for p in FileWalker(ctx.root).walk() if p.startswith(prefix))
    for path in files:
        if ctx.cancel.is_set():
            return
        try:
            with open(ctx.root / path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES)
        except OSError:
            continue
        if b"\x00" in data:
            continue
        lines = data.decode("utf-8", "replace").split("\n")
        if lines[-1] == "":
            lines.pop()
        for number, line in enumerate(lines):
            line = line.rstrip("\r")
            if matches(line):
                yield path, number, line
