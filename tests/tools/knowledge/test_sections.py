"""Splitting Markdown and reStructuredText into heading sections."""

from __future__ import annotations

import pytest

from agentls.tools.knowledge.sections import document_kind, split_sections

MARKDOWN = """\
---
title: front matter
---
Intro paragraph.

# Design

Overview text.

## Tools

Tool text.

```python
# not a heading
```

### Permissions ###
Flags.

Setext Title
============
Under setext.

Sub Setext
----------
Deep text.

## Last
"""

RST = """\
=========
Reference
=========

Preamble of the title.

Install
-------
pip install.

Options
~~~~~~~
Some options.

Usage
-----
Run it.
"""


def heads(text: str, kind: str) -> list[tuple[str, int, int]]:
    return [(s.heading, s.start_line, s.end_line) for s in split_sections(text, kind)]


def test_markdown_sections_with_nested_headings() -> None:
    assert heads(MARKDOWN, "markdown") == [
        ("", 0, 3),
        ("Design", 5, 7),  # trailing blank lines are not part of a section
        ("Design > Tools", 9, 15),
        ("Design > Tools > Permissions", 17, 18),
        ("Setext Title", 20, 22),
        ("Setext Title > Sub Setext", 24, 26),
        ("Setext Title > Last", 28, 28),
    ]


def test_markdown_section_text_is_its_lines() -> None:
    tools = split_sections(MARKDOWN, "markdown")[2]
    assert tools.text.splitlines()[0] == "## Tools"
    assert "# not a heading" in tools.text
    assert tools.level == 2
    assert tools.heading_path == ("Design", "Tools")


def test_rst_sections_levels_follow_first_appearance() -> None:
    assert heads(RST, "rst") == [
        ("Reference", 0, 4),
        ("Reference > Install", 6, 8),
        ("Reference > Install > Options", 10, 12),
        ("Reference > Usage", 14, 16),
    ]


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("", "markdown", []),
        ("just text\nmore", "markdown", [("", 0, 1)]),
        ("#NoSpace is not a heading\n# Real", "markdown", [("", 0, 0), ("Real", 1, 1)]),
        ("    # indented code\n", "markdown", [("", 0, 0)]),
        ("text\n\n---\n\nafter rule", "markdown", [("", 0, 4)]),  # thematic break
        ("~~~\n# in tilde fence\n~~~\n# Out", "markdown", [("", 0, 2), ("Out", 3, 3)]),
        ("Title\n=====\n\nbody", "rst", [("Title", 0, 3)]),
        ("  indented\n  ------\n", "rst", [("", 0, 1)]),
        ("=====  =====\nA      B\n=====  =====\n", "rst", [("", 0, 2)]),  # a simple table
    ],
)
def test_edge_cases(text: str, kind: str, expected: list[tuple[str, int, int]]) -> None:
    assert heads(text, kind) == expected


@pytest.mark.parametrize(
    ("path", "kind"),
    [("a.rst", "rst"), ("A.RST", "rst"), ("a.md", "markdown"), ("docs/a.txt", "markdown")],
)
def test_document_kind(path: str, kind: str) -> None:
    assert document_kind(path) == kind
