"""The prompt text: templates (agent/prompts/*.txt), filled with `string.Template` ($name),
and the lines a module puts in a prompt (agent/prompts/<module>.toml, its `texts`).

`string.Template` rather than `str.format`, so the templates may show JSON examples with
braces; a TOML line with blanks to fill is filled by its module with `str.format`. A
missing value is a KeyError (a template and its caller disagree: a bug).
Must not know: the loop, components, models, LSP.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from string import Template
from typing import Any

PROMPTS_DIR = Path(__file__).with_name("prompts")


@functools.cache
def template(name: str) -> Template:
    return Template((PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8"))


@functools.cache
def texts(name: str) -> dict[str, Any]:
    """The lines of prompts/<name>.toml (strings, lists of them, tables of them)."""
    return tomllib.loads((PROMPTS_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """The template `name` filled with `values`; blank runs of lines collapsed."""
    text = template(name).substitute({k: str(v) for k, v in values.items()})
    lines: list[str] = []
    for line in text.strip().splitlines():
        if line.strip() or (lines and lines[-1].strip()):
            lines.append(line.rstrip())
    return "\n".join(lines).strip()


def bullets(items: list[str], empty: str = "(none)") -> str:
    return "\n".join(f"- {item}" for item in items) if items else empty
