"""The prompt templates (agent/prompts/*.txt), filled with `string.Template` ($name).

`string.Template` rather than `str.format`, so the templates may show JSON examples with
braces. A missing value is a KeyError (a template and its caller disagree: a bug).
Must not know: the loop, components, models, LSP.
"""

from __future__ import annotations

import functools
from pathlib import Path
from string import Template

PROMPTS_DIR = Path(__file__).with_name("prompts")


@functools.cache
def template(name: str) -> Template:
    return Template((PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8"))


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
