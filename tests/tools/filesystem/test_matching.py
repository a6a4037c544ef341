"""The matching rules of edit_file, on plain text."""

from __future__ import annotations

import pytest

from agentls.tools.filesystem.matching import MatchError, replace_unique

FILE = "def f():\n    if x:\n        a = 1\n        b = 2\n    return a\n"


@pytest.mark.parametrize(
    ("old", "new", "expected", "fuzzy"),
    [
        ("a = 1", "a = 10", FILE.replace("a = 1", "a = 10"), False),
        # old indented less than the file: the shift is added to new lines
        (
            "if x:\n    a = 1",
            "if y:\n    a = 3",
            FILE.replace("if x:\n        a = 1", "if y:\n        a = 3"),
            True,
        ),
        # old indented more than the file: the shift is removed
        (
            "            a = 1\n            b = 2",
            "            a = 1\n            c = 3\n            b = 2",
            FILE.replace("b = 2", "c = 3\n        b = 2"),
            True,
        ),
        # blank lines around old are not part of the match, nor around new
        (
            "\n\n    return a\n\n",
            "\n\n    return b\n\n",
            FILE.replace("return a", "return b"),
            True,
        ),
        # deleting the matched lines
        ("\tb = 2\n", "", FILE.replace("        b = 2\n", ""), True),
        # a partial-line exact match stays exact
        ("  b = 2\n", "", FILE.replace("  b = 2\n", ""), False),
        # tabs in old vs spaces in the file
        ("\ta = 1\n\tb = 2", "\ta = 1", FILE.replace("        b = 2\n", ""), True),
    ],
)
def test_replace_unique(old, new, expected, fuzzy):
    result = replace_unique(FILE, old, new, "f.py")
    assert result.text == expected
    assert result.fuzzy is fuzzy


@pytest.mark.parametrize(
    ("text", "old", "fragment"),
    [
        (FILE, "    ", "occurs"),  # whitespace-only old text, many exact hits
        ("x\ny\n", "\n  \n", "only whitespace"),
        ("a\nb\na\nb\n", "  a\n  b", "ignoring whitespace it occurs 2 times"),
    ],
)
def test_errors(text, old, fragment):
    with pytest.raises(MatchError, match=fragment):
        replace_unique(text, old, "z", "f.py")
