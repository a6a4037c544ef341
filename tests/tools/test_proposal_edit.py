"""Diffs and WorkspaceEdits of proposals: minimal ranges in UTF-16, exact round trips."""

from __future__ import annotations

import pytest

from agentls.tools.proposals.edit import apply_text_edit, text_edit, unified_diff, workspace_edit


def _range(edit: dict) -> tuple[tuple[int, int], tuple[int, int]]:
    r = edit["range"]
    return (r["start"]["line"], r["start"]["character"]), (r["end"]["line"], r["end"]["character"])


@pytest.mark.parametrize(
    ("old", "new", "start", "end", "new_text"),
    [
        ("a\nb\nc\n", "a\nB\nc\n", (1, 0), (2, 0), "B\n"),  # one line changed
        ("a\nb\nc\n", "a\nb\nc\nd\n", (3, 0), (3, 0), "d\n"),  # appended
        ("a\nb\nc\n", "b\nc\n", (0, 0), (1, 0), ""),  # first line deleted
        ("a\nb", "a\nb\nc", (1, 0), (1, 1), "b\nc"),  # no final newline
        ("x = 1\n", "x = 1\ny = 2\n", (1, 0), (1, 0), "y = 2\n"),
        ("", "new\n", (0, 0), (0, 0), "new\n"),
        ("😀 a\n😀 b\n", "😀 a\n😀 B\n", (1, 0), (2, 0), "😀 B\n"),
        ("same\n", "same\n", (1, 0), (1, 0), ""),
    ],
)
def test_text_edit_is_minimal_and_round_trips(old, new, start, end, new_text):
    edit = text_edit(old.encode(), new.encode())
    assert _range(edit) == (start, end)
    assert edit["newText"] == new_text
    assert apply_text_edit(old.encode(), edit) == new.encode()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("héllo wörld\n", "héllo wörld!\n"),
        ("a😀b\nc\n", "a😀b\nc😀\n"),
        ("l1\r\nl2\r\n", "l1\r\nL2\r\n"),
        ("one\ntwo\nthree", "one\n2\nthree"),
    ],
)
def test_round_trip_with_unicode_and_crlf(old, new):
    assert apply_text_edit(old.encode(), text_edit(old.encode(), new.encode())) == new.encode()


def test_utf16_characters_in_ranges():
    old = "x😀\nq😀\n".encode()
    new = "x😀\nq😀!\n".encode()
    edit = text_edit(old, new)
    assert _range(edit) == ((1, 0), (2, 0))
    # a range inside a line counts the emoji as two UTF-16 units
    assert (
        apply_text_edit(
            old,
            {
                "range": {"start": {"line": 1, "character": 3}, "end": {"line": 1, "character": 3}},
                "newText": "!",
            },
        )
        == new
    )


def test_unified_diff_headers_and_missing_final_newline():
    diff = unified_diff("src/a.py", b"a\nb", b"a\nc")
    assert diff.startswith("--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n")
    assert "-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n" in diff


def test_unified_diff_of_a_new_file():
    assert (
        unified_diff("n.txt", None, b"x\ny\n")
        == "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n"
    )


def test_workspace_edit_shapes():
    uri = "file:///ws/a.py"
    existing = workspace_edit(uri, 4, b"a\n", b"b\n")
    assert existing == {
        "documentChanges": [
            {
                "textDocument": {"uri": uri, "version": 4},
                "edits": [
                    {
                        "range": {
                            "start": {"line": 0, "character": 0},
                            "end": {"line": 1, "character": 0},
                        },
                        "newText": "b\n",
                    }
                ],
            }
        ]
    }
    created = workspace_edit(uri, None, None, b"hi\n")["documentChanges"]
    assert created[0] == {
        "kind": "create",
        "uri": uri,
        "options": {"overwrite": False, "ignoreIfExists": False},
    }
    assert created[1]["textDocument"] == {"uri": uri, "version": None}
    assert created[1]["edits"][0]["newText"] == "hi\n"
    assert _range(created[1]["edits"][0]) == ((0, 0), (0, 0))
