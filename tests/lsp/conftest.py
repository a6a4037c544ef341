"""Shared helpers for end-to-end LSP tests: a fresh copy of the sample workspace, and
positions found by searching text (so tests say what they point at)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample-workspace"
SERVER = [sys.executable, "-m", "agentls.cli", "serve"]


def copy_sample(dest: Path) -> Path:
    target = dest / "sample"
    shutil.copytree(SAMPLE, target)
    return target


def find(root: Path, rel: str, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    """(line, UTF-16 character) of the nth occurrence of `needle` in a file, plus offset."""
    seen = 0
    for line_no, line in enumerate((root / rel).read_text("utf-8").splitlines()):
        col = line.find(needle)
        while col >= 0:
            if seen == nth:
                prefix = line[: col + offset]
                return line_no, len(prefix.encode("utf-16-le")) // 2
            seen += 1
            col = line.find(needle, col + 1)
    raise AssertionError(f"{needle!r} #{nth} not in {rel}")
