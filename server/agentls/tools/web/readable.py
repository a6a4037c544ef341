"""A fetched body as readable text: HTML through trafilatura, other text as it is.

HTML keeps the title and the main content as Markdown — headings, paragraphs, lists,
tables and code blocks — without scripts, styles, navigation, headers, footers, cookie
banners or comment widgets (trafilatura's boilerplate removal). A page too small for the
main-content heuristics falls back to all of its visible text. Text media types (plain,
Markdown, JSON, XML, CSV) are decoded and returned unchanged; anything else is refused.
Must not know: HTTP, the network policy, the tools.
"""

from __future__ import annotations

import re

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"application/json", "application/xml", "application/javascript"})
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")
_HEADERLINK = re.compile(r"\s*[¶§]$")


class NotText(ValueError):
    """The body is not text (an image, a PDF, an archive...)."""


def is_text(content_type: str) -> bool:
    return (
        content_type.startswith("text/")
        or content_type in TEXT_TYPES
        or content_type.endswith(("+json", "+xml"))
    )


def _decode(body: bytes, charset: str | None) -> str:
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:  # an unknown charset name
        return body.decode("utf-8", errors="replace")


def _looks_like_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<!--"))


def _tidy(markdown: str) -> str:
    """Paragraph lines unindented, headings without their permalink signs; code untouched."""
    out: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            out.append(line.strip())
            continue
        if in_code:
            out.append(line)
        elif _LIST_ITEM.match(line):
            out.append(line.rstrip())
        else:
            text = " ".join(line.split())
            out.append(_HEADERLINK.sub("", text) if text.startswith("#") else text)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def html_to_text(html: str | bytes) -> tuple[str, str]:
    """(title, Markdown text) of an HTML page."""
    import trafilatura
    from trafilatura.metadata import extract_metadata

    tree = trafilatura.load_html(html)
    if tree is None:  # a fragment without <html>/<body>: trafilatura wants a document
        fragment = html if isinstance(html, str) else _decode(html, None)
        html = f"<html><body>{fragment}</body></html>"
        tree = trafilatura.load_html(html)
        if tree is None:
            return "", ""
    title = (tree.findtext(".//title") or "").strip()
    if not title:
        title = extract_metadata(tree, extensive=False).title or ""
    text = trafilatura.extract(
        tree,
        output_format="markdown",
        include_formatting=True,
        include_tables=True,
        include_comments=False,
        include_links=False,
        include_images=False,
        favor_recall=True,
        deduplicate=False,
    )
    if not text:
        text = trafilatura.html2txt(html)
    return " ".join(title.split()), _tidy(text or "")


def readable(body: bytes, content_type: str, charset: str | None) -> tuple[str, str]:
    """(title, text) of a response body; NotText when it is neither HTML nor text."""
    if content_type in HTML_TYPES or (not content_type and _looks_like_html(body)):
        return html_to_text(_decode(body, charset) if charset else body)
    if is_text(content_type) or not content_type:
        text = _decode(body, charset)
        if "\x00" in text:
            raise NotText("the body is binary, not text")
        return "", text
    raise NotText(f"the content type {content_type!r} is not text")
