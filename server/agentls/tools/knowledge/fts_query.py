"""Turning free text from a user or a model into a safe SQLite FTS5 MATCH expression.

Every whitespace-separated chunk that holds a letter or a digit becomes a quoted phrase
(FTS5 tokenizes inside the quotes with the table's own tokenizer, so `snake_case` or
`foo.bar` match as adjacent tokens); the phrases are OR-ed so bm25 ranks documents by how
many terms they hold, and the last phrase is a prefix match (the user may still be typing).
Text with no letters or digits yields None: the caller returns nothing without querying.
Must not know: which tables are searched, tools, the agent.
"""

from __future__ import annotations

MAX_TERMS = 32
MAX_TERM_CHARS = 128


def _clean(chunk: str) -> str:
    # NUL ends an FTS5 string early ("unterminated string"); other controls are noise;
    # lone surrogates cannot be encoded to UTF-8 for SQLite.
    kept = (c for c in chunk if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF)
    return "".join(kept)[:MAX_TERM_CHARS]


def query_terms(text: str) -> list[str]:
    """The distinct searchable chunks of `text`, in order, at most MAX_TERMS of them."""
    terms: list[str] = []
    seen: set[str] = set()
    for raw in text.split():
        chunk = _clean(raw)
        if not any(c.isalnum() for c in chunk):
            continue
        key = chunk.casefold()
        if key in seen:
            continue
        seen.add(key)
        terms.append(chunk)
        if len(terms) == MAX_TERMS:
            break
    return terms


def match_expression(text: str, *, prefix_last: bool = True) -> str | None:
    """An FTS5 MATCH expression for `text`, or None when nothing in it is searchable."""
    terms = query_terms(text)
    if not terms:
        return None
    phrases = ['"' + term.replace('"', '""') + '"' for term in terms]
    if prefix_last:
        phrases[-1] += "*"
    return " OR ".join(phrases)
