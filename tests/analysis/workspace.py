"""Shared by the analysis tests: a workspace written from a {path: text} dict, an index
built on it, and the (line, character) of a needle in one of its files."""

from __future__ import annotations

from pathlib import Path

from agentls.analysis.index import WorkspaceIndex


def write_files(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def built_index(root: Path, files: dict[str, str]) -> WorkspaceIndex:
    """An index of `files` written under `root`, built in process without a cache."""
    ix = WorkspaceIndex(write_files(root, files), cache_dir=False, jobs=1)
    ix.build()
    return ix


def position(root: Path, rel: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """(line, character + offset) of the nth occurrence of `needle` in `rel`."""
    seen = 0
    for n, line in enumerate((root / rel).read_text().splitlines()):
        col = line.find(needle)
        while col >= 0:
            if seen == nth:
                return n, col + offset
            seen += 1
            col = line.find(needle, col + 1)
    raise AssertionError(f"{needle!r} not in {rel}")
