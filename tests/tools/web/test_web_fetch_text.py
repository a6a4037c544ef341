"""web_fetch on saved pages (hand-made fixtures modelled on a docs page, a blog post and a
code-hosting README page): the readable text keeps the title, headings, paragraphs, lists
and code blocks, and drops scripts, styles, navigation, banners and footers."""

from __future__ import annotations

import pytest
from web_servers import WebCall

from agentls.tools.web.readable import readable

PAGES = {
    "docs_page.html": {
        "title": "Configuration — quickparse 2.4 documentation",
        "keep": ["# Configuration", "## Options", "## Example", "- **strict** (bool, default `False`)",
                 "parser = Parser(strict=True, max_depth=256)", "```", "Keyword arguments always win over the file"],
        "drop": ["Search docs", "gtag", "font-family", "View page source", "Built with Sphinx", "Changelog",
                 "SphinxRtdTheme", "¶"],
    },
    "blog_post.html": {
        "title": "Why our builds got 3x faster | The Tinkerware Engineering Blog",
        "keep": ["# Why our builds got 3x faster", "## Splitting the test suite",
                 "1. Record each test's duration on the main branch.",
                 "    for test, seconds in sorted(durations.items(), key=lambda kv: -kv[1]):",
                 "Measure first; the slowest step is rarely the one you suspect."],
        "drop": ["We use cookies", "Accept all", "Pricing", "Subscribe", "Related posts", "loadComments",
                 "Privacy", "analytics", "cookie-banner", "42 comments"],
    },
    "github_readme.html": {
        "title": "octo-labs/tinyqueue: A small, fast priority queue for Python",
        "keep": ["# tinyqueue", "## Installation", "pip install tinyqueue", "## Usage",
                 'q.push("fix bug", priority=1)', "- Stable ordering for equal priorities", "MIT"],
        "drop": ["Skip to content", "Sign up", "Pull requests", "4 Branches", "__APP_STATE__",
                 "Drop Python 3.8", "Status", "querySelectorAll"],
    },
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_saved_pages_become_readable_text(web: WebCall, name: str) -> None:
    result = web("web_fetch", url=f"http://public.test/page?name={name}")
    assert result.ok, result.error
    out, expected = result.output, PAGES[name]
    assert out["status"] == 200 and out["url"] == f"http://public.test/page?name={name}"
    assert out["title"] == expected["title"] and out["truncated"] is False
    for fragment in expected["keep"]:
        assert fragment in out["text"], (fragment, out["text"])
    for fragment in expected["drop"]:
        assert fragment not in out["text"], (fragment, out["text"])
    assert "<" not in out["text"].replace("</", "").split("```")[0]  # no markup before the first code block


def test_max_chars_cuts_and_says_so(web: WebCall) -> None:
    result = web("web_fetch", url="http://public.test/page?name=blog_post.html", max_chars=120)
    assert result.ok and result.output["truncated"] is True and len(result.output["text"]) == 120


def test_redirects_are_followed_and_the_final_url_reported(web: WebCall) -> None:
    result = web("web_fetch", url="http://public.test/redirect?code=301&to=%2Fhello")
    assert result.ok and result.output["url"] == "http://public.test/hello"
    assert result.output["text"] == "Hello from the test web." and result.output["title"] == "Hi"


def test_an_error_status_is_returned_not_raised(web: WebCall) -> None:
    result = web("web_fetch", url="http://public.test/missing")
    assert result.ok and result.output["status"] == 404 and "Not found" in result.output["text"]


@pytest.mark.parametrize(
    ("body", "ctype", "charset", "title", "text"),
    [
        (b"plain words\nline two", "text/plain", None, "", "plain words\nline two"),
        (b'{"a": 1}', "application/json", None, "", '{"a": 1}'),
        ("<p>café ok</p>".encode("latin-1"), "text/html", "latin-1", "", "café ok"),
        (b"<!DOCTYPE html><html><head><title>T</title></head><body><p>untyped page</p></body></html>", "", None, "T", "untyped page"),
        (b"<html><body><h2>Only</h2><ul><li>one</li><li>two</li></ul></body></html>", "text/html", None, "Only", "two"),  # no <title>: the metadata's guess
    ],
)
def test_readable_by_content_type(body: bytes, ctype: str, charset: str | None, title: str, text: str) -> None:
    got_title, got_text = readable(body, ctype, charset)
    assert got_title == title and text in got_text


@pytest.mark.parametrize(("body", "ctype"), [(b"%PDF-1.7", "application/pdf"), (b"a\x00b", "")])
def test_binary_bodies_are_not_text(body: bytes, ctype: str) -> None:
    with pytest.raises(ValueError, match="not text|binary"):
        readable(body, ctype, None)
