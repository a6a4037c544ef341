"""Free text → FTS5 MATCH expressions: quoting, prefix on the last term, nothing searchable."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentls.tools.knowledge.fts_query import MAX_TERMS, match_expression, query_terms


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello", '"hello"*'),
        ("hello world", '"hello" OR "world"*'),
        ('say "hi"', '"say" OR """hi"""*'),
        ("snake_case foo.bar", '"snake_case" OR "foo.bar"*'),
        ("NEAR AND OR NOT", '"NEAR" OR "AND" OR "OR" OR "NOT"*'),
        ("dup Dup dup", '"dup"*'),
        ("a\x00b", '"ab"*'),
        ("... --- ???", None),
        ("", None),
        ("   \t\n", None),
        ("😀 ✨", None),
    ],
)
def test_match_expression(text: str, expected: str | None) -> None:
    assert match_expression(text) == expected


def test_prefix_can_be_turned_off() -> None:
    assert match_expression("a b", prefix_last=False) == '"a" OR "b"'


def test_terms_are_capped() -> None:
    assert len(query_terms(" ".join(f"w{i}" for i in range(100)))) == MAX_TERMS


@pytest.fixture(scope="module")
def fts() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='unicode61 remove_diacritics 2')")
    conn.executemany(
        "INSERT INTO t VALUES (?)", [("hello world",), ("café au lait",), ("snake_case names",)]
    )
    return conn


@given(st.text(max_size=80))
@settings(max_examples=300, deadline=None)
def test_any_text_is_a_valid_match_expression(fts: sqlite3.Connection, text: str) -> None:
    expression = match_expression(text)
    if expression is not None:
        fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expression,)).fetchone()
