"""The answer shape of the symbol lookups: locations plus how sure the index is.

`how` is "resolved" (followed scopes and imports), "fallback" (ranked matches by name)
or "none" (nothing found). Lines and characters are 0-based (UTF-16 characters).
Must not know: how the index finds answers, LSP.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentls.analysis.model import Location, Resolution
from agentls.tools.base import ToolOutput

MAX_LOCATIONS = 200

How = Literal["resolved", "fallback", "none"]
HOW_DESCRIPTION = (
    'How sure the answer is: "resolved" followed scopes and imports, "fallback" matched by '
    'name only (check before relying on it), "none" found nothing.'
)


class LocationOut(ToolOutput):
    path: str
    line: int
    character: int
    end_line: int
    end_character: int
    name: str
    kind: str
    container: str


class LookupOutput(ToolOutput):
    symbol: str
    how: How = Field(description=HOW_DESCRIPTION)
    locations: list[LocationOut]
    total: int = Field(description="How many locations were found (locations may be capped).")
    truncated: bool
    note: str = ""


def location_out(loc: Location) -> LocationOut:
    return LocationOut(
        path=loc.path,
        line=loc.start[0],
        character=loc.start[1],
        end_line=loc.end[0],
        end_character=loc.end[1],
        name=loc.name,
        kind=loc.kind,
        container=loc.container,
    )


def lookup_output(symbol: str, result: Resolution, note: str = "") -> LookupOutput:
    locations = result.locations
    how: How = result.how if locations else "none"
    notes = [n for n in (note, result.note) if n]
    return LookupOutput(
        symbol=symbol,
        how=how,
        locations=[location_out(loc) for loc in locations[:MAX_LOCATIONS]],
        total=len(locations),
        truncated=len(locations) > MAX_LOCATIONS,
        note="; ".join(notes),
    )
