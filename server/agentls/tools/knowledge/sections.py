"""Splitting a document into sections at its headings: Markdown (ATX `#` and setext
underlines) and reStructuredText (underlined, optionally overlined titles).

Each section runs from its heading line to the line before the next heading and carries
its heading path ("Design > Tools"). Text before the first heading is a section with an
empty heading path. Lines are 0-based, `end_line` inclusive. Headings inside fenced code
blocks and YAML front matter are ignored.
Must not know: files, indexes, tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING_SEPARATOR = " > "

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RST_ADORNMENT = re.compile(r"""^([!-/:-@\[-`{-~])\1{2,}[ \t]*$""")


@dataclass(frozen=True, slots=True)
class Section:
    heading_path: tuple[str, ...]
    level: int  # 0 for text before the first heading
    start_line: int
    end_line: int
    text: str

    @property
    def heading(self) -> str:
        return HEADING_SEPARATOR.join(self.heading_path)


# A heading found in the text: (line where the section starts, lines it spans, level, title)
_Heading = tuple[int, int, int, str]


def _front_matter_end(lines: list[str]) -> int:
    """The first line after a leading YAML front matter block (0 when there is none)."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def markdown_headings(lines: list[str]) -> list[_Heading]:
    headings: list[_Heading] = []
    fence: str | None = None
    start = _front_matter_end(lines)
    previous_is_text = False
    for i in range(start, len(lines)):
        line = lines[i]
        fenced = _FENCE.match(line)
        if fence is not None:
            if fenced and fenced.group(1)[0] == fence[0] and len(fenced.group(1)) >= len(fence):
                fence = None
            previous_is_text = False
            continue
        if fenced:
            fence = fenced.group(1)
            previous_is_text = False
            continue
        atx = _ATX.match(line)
        if atx:
            headings.append((i, 1, len(atx.group(1)), (atx.group(2) or "").strip()))
            previous_is_text = False
            continue
        setext = _SETEXT.match(line)
        if setext and previous_is_text and not (headings and headings[-1][0] == i - 1):
            level = 1 if setext.group(1)[0] == "=" else 2
            headings.append((i - 1, 2, level, lines[i - 1].strip()))
            previous_is_text = False
            continue
        previous_is_text = bool(line.strip()) and not line.startswith(("    ", "\t"))
    return headings


def rst_headings(lines: list[str]) -> list[_Heading]:
    """Underlined (and optionally overlined) titles; levels in order of first appearance."""
    headings: list[_Heading] = []
    styles: list[tuple[str, bool]] = []
    i = 0
    while i < len(lines) - 1:
        over = _RST_ADORNMENT.match(lines[i])
        title = lines[i + 1] if over else lines[i]
        under_at = i + 2 if over else i + 1
        under = _RST_ADORNMENT.match(lines[under_at]) if under_at < len(lines) else None
        plain_title = bool(title.strip()) and not _RST_ADORNMENT.match(title)
        if over and under and plain_title and under.group(1) == over.group(1):
            style = (under.group(1), True)
        elif not over and under and plain_title and not title[:1].isspace():
            style = (under.group(1), False)
        else:
            i += 1
            continue
        if style not in styles:
            styles.append(style)
        headings.append((i, under_at - i + 1, styles.index(style) + 1, title.strip()))
        i = under_at + 1
    return headings


def split_sections(text: str, kind: str) -> list[Section]:
    """Sections of `text`; kind is "rst" or "markdown" (plain text is read as Markdown)."""
    lines = text.splitlines()
    headings = rst_headings(lines) if kind == "rst" else markdown_headings(lines)
    sections: list[Section] = []
    first = headings[0][0] if headings else len(lines)
    preamble = first - 1
    while preamble >= 0 and not lines[preamble].strip():
        preamble -= 1
    if preamble >= 0:
        sections.append(Section((), 0, 0, preamble, "\n".join(lines[: preamble + 1])))
    stack: list[tuple[int, str]] = []
    for n, (start, _span, level, title) in enumerate(headings):
        end = headings[n + 1][0] - 1 if n + 1 < len(headings) else len(lines) - 1
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        while end > start and not lines[end].strip():
            end -= 1
        body = "\n".join(lines[start : end + 1])
        sections.append(Section(tuple(t for _, t in stack), level, start, end, body))
    return sections


def document_kind(path: str) -> str:
    return "rst" if path.lower().endswith(".rst") else "markdown"
