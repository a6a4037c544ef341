"""Documentation text of a symbol: its signature line and its docstring or JSDoc, cut
from the source on demand (the index stores only their byte ranges).
Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

import inspect
import re

from agentls.analysis.model import Symbol

_SPACES = re.compile(r"\s+")


def clean_doc(raw: str) -> str:
    """A docstring or JSDoc comment as plain text."""
    raw = raw.strip()
    if raw.startswith("/*"):
        body = raw[2:-2] if raw.endswith("*/") else raw[2:]
        body = body.lstrip("*")
        lines = [re.sub(r"^\s*\* ?", "", ln) for ln in body.splitlines()]
        return inspect.cleandoc("\n".join(lines)).strip()
    if raw.startswith("//"):
        return inspect.cleandoc("\n".join(ln.strip().lstrip("/").strip() for ln in raw.splitlines()))
    m = re.match(r"^[rRuUbBfF]*('''|\"\"\"|'|\")", raw)
    if m:
        q = m.group(1)
        body = raw[m.end() :]
        if body.endswith(q):
            body = body[: -len(q)]
        return inspect.cleandoc(body)
    return raw


def detail_of(data: bytes, sym: Symbol) -> str:
    """The signature shown for a symbol: its text up to the body, or its first line."""
    if sym.detail_end >= 0:
        text = data[sym.start : sym.detail_end].decode("utf-8", "replace")
        text = _SPACES.sub(" ", text).strip().rstrip(":{").strip()
    else:
        text = data[sym.start : min(sym.end, sym.start + 240)].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    return text if len(text) <= 200 else text[:197] + "..."


def doc_of(data: bytes, sym: Symbol) -> str:
    return clean_doc(data[sym.doc_start : sym.doc_end].decode("utf-8", "replace")) if sym.doc_start >= 0 else ""
