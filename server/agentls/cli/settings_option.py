"""`--settings JSON` for `agentls run` and `agentls tool(s)` (DESIGN §7).

The value is the server's settings object (`initializationOptions`), inline JSON or
`@FILE`. The command line is stricter than the editor: malformed JSON, a non-object or an
invalid value is an error (CI should fail loudly rather than run with defaults); unknown
keys are reported on stderr and ignored. Command-line flags win over the object; callers
apply that. Must not know: any particular subcommand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentls.settings import Settings

HELP = (
    "the server's settings object as JSON (or @FILE), as the editor sends it in "
    "initializationOptions, e.g. '{\"searchUrl\": \"http://localhost:8888/search\"}'; "
    "flags win over it"
)


class SettingsError(ValueError):
    """--settings could not be used; the message says why."""


def add_settings_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--settings", default=None, metavar="JSON", help=HELP)


def _raw(value: str) -> Any:
    text = value
    if value.startswith("@"):
        try:
            text = Path(value[1:]).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"--settings {value}: cannot read the file: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(f"--settings is not valid JSON: {exc}") from exc


def load_settings(value: str | None) -> Settings:
    """The settings for this command: defaults, or the --settings object checked strictly."""
    from agentls.settings import Settings, parse_settings

    if value is None:
        return Settings()
    raw = _raw(value)
    if not isinstance(raw, dict):
        raise SettingsError(f"--settings must be a JSON object, got {type(raw).__name__}")
    if isinstance(raw.get("agentls"), dict):  # the section nested, as some editors send it
        raw = raw["agentls"]
    settings, problems = parse_settings(raw)
    if problems:
        raise SettingsError("--settings: " + "; ".join(p.removesuffix("; using the default") for p in problems))
    known = {f.alias or name for name, f in Settings.model_fields.items()} | set(Settings.model_fields)
    unknown = sorted(k for k in raw if k not in known)
    if unknown:
        print(f"agentls: --settings: unknown keys ignored: {', '.join(unknown)}", file=sys.stderr)
    return settings
