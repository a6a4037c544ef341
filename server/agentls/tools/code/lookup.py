"""What find_symbol_definition and find_references share: the input and the lookup flow.

With a path and a line the index resolves the occurrence at that position (when the
character is not given, the symbol is looked for on that line); when the position names
nothing, or no position is given, the index matches the symbol by name (the path, if
any, ranks nearby answers first). A dotted symbol with no match is retried with its
last part.
Must not know: how the index resolves names, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Self

from pydantic import Field, model_validator

from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.model import Resolution
from agentls.tools.base import ToolContext, ToolError, ToolInput
from agentls.tools.code.fields import PathText, SymbolText
from agentls.tools.code.index_access import analysed_file, workspace_index
from agentls.tools.code.locations import LookupOutput, lookup_output

AtPosition = Callable[[WorkspaceIndex, str, int, int], Resolution]
ByName = Callable[[WorkspaceIndex, str, str | None], Resolution]


class SymbolQueryInput(ToolInput):
    symbol: SymbolText = Field(
        description="The name to look up, e.g. `parse_args` or `Config.load`."
    )
    path: PathText | None = Field(
        default=None,
        description="A file where the symbol is used or defined (relative to the root).",
    )
    line: int | None = Field(
        default=None, ge=0, description="0-based line of an occurrence in `path`."
    )
    character: int | None = Field(
        default=None,
        ge=0,
        description="0-based character on that line; found from `symbol` when omitted.",
    )

    @model_validator(mode="after")
    def _position_needs_path(self) -> Self:
        if self.character is not None and self.line is None:
            raise ValueError("`character` needs `line`")
        if self.line is not None and self.path is None:
            raise ValueError("`line` needs `path`")
        return self


def last_part(symbol: str) -> str:
    return re.split(r"[.#:]+", symbol.strip())[-1] or symbol.strip()


def column_of(line_text: str, name: str) -> int | None:
    """The UTF-16 character where `name` first occurs as a whole word on the line."""
    match = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line_text)
    if match is None:
        return None
    return len(line_text[: match.start()].encode("utf-16-le")) // 2


def _line_text(ctx: ToolContext, tool: str, rel: str, line: int) -> str:
    text = ctx.workspace.read_text(rel) or ""
    lines = text.split("\n")
    if line >= len(lines):
        raise ToolError(
            "runtime",
            f"line {line} is past the end of {rel!r} ({len(lines)} lines)",
            tool,
            path=rel,
        )
    return lines[line].rstrip("\r")


def lookup(
    ctx: ToolContext, tool: str, input: SymbolQueryInput, at_position: AtPosition, by_name: ByName
) -> LookupOutput:
    symbol = input.symbol.strip()
    rel: str | None = None
    if input.path is not None:
        index, rel = analysed_file(ctx, tool, input.path)
    else:
        index = workspace_index(ctx)
    note = ""
    if rel is not None and input.line is not None:
        character = input.character
        if character is None:
            character = column_of(_line_text(ctx, tool, rel, input.line), last_part(symbol))
        else:
            _line_text(ctx, tool, rel, input.line)
        if character is not None:
            result = at_position(index, rel, input.line, character)
            if result.locations:
                if result.name and result.name != last_part(symbol):
                    note = f"the position names {result.name!r}, not {symbol!r}"
                return lookup_output(symbol, result, note)
        note = f"nothing resolved at {rel}:{input.line}; matched {symbol!r} by name instead"
    result = by_name(index, symbol, rel)
    if not result.locations and last_part(symbol) != symbol:
        result = by_name(index, last_part(symbol), rel)
        note = "; ".join(n for n in (note, f"matched the last part {last_part(symbol)!r}") if n)
    return lookup_output(symbol, result, note)
