"""edit_file: a unique match (exact, else whitespace-tolerant) becomes a proposal."""

from __future__ import annotations

import pytest

SOURCE = """\
class Shop:
    def total(self, items):
        result = 0
        for item in items:
            result += item.price
        return result

    def count(self, items):
        result = 0
        for item in items:
            result += 1
        return result
"""


@pytest.fixture
def ctx(make_ctx, ws_root):
    (ws_root / "shop.py").write_text(SOURCE)
    return make_ctx("dev", "auto")


def _edit(call, ctx, old: str, new: str, path: str = "shop.py"):
    return call(ctx, "edit_file", path=path, old=old, new=new)


@pytest.mark.parametrize(
    ("old", "new", "expected_line", "fuzzy"),
    [
        # exact and unique
        (
            "result += item.price",
            "result += item.price * item.qty",
            "            result += item.price * item.qty\n",
            False,
        ),
        # no exact match: indentation differs (the model dropped the class indent)
        (
            "def count(self, items):\n    result = 0\n",
            "def count(self, items):\n    result = 10\n",
            "        result = 10\n",
            True,
        ),
        # no exact match: trailing whitespace differs
        (
            "return result   \n\n    def count(self, items):",
            "return result  # total\n\n    def count(self, items):",
            "        return result  # total\n\n    def count(self, items):\n",
            True,
        ),
        # deeper new lines keep their relative indentation
        (
            "    for item in items:\n        result += 1",
            "    for item in items:\n        if item:\n            result += 1",
            "        for item in items:\n            if item:\n                result += 1\n",
            True,
        ),
    ],
)
def test_unique_matches(call, ctx, ws_root, old, new, expected_line, fuzzy):
    result = _edit(call, ctx, old, new)
    assert result.ok, result.error
    out = result.output
    assert out["status"] == "applied"
    assert ("ignoring indentation" in out["message"]) is fuzzy
    text = (ws_root / "shop.py").read_text()
    assert expected_line in text
    assert text.count("\n") - SOURCE.count("\n") == new.count("\n") - old.count("\n")


def test_the_proposal_edit_is_a_minimal_range(call, make_ctx, ws_root):
    (ws_root / "shop.py").write_text(SOURCE)
    ctx = make_ctx("dev", "never")
    out = _edit(call, ctx, "result += 1", "result += 2").output
    (change,) = ctx.proposals.get(out["proposal_id"]).edit["documentChanges"]
    (edit,) = change["edits"]
    assert edit["range"] == {
        "start": {"line": 10, "character": 0},
        "end": {"line": 11, "character": 0},
    }
    assert edit["newText"] == "            result += 2\n"


def test_missing_shows_the_nearest_candidates(call, ctx, ws_root):
    result = _edit(call, ctx, "for itm in items:\n    result += itm.prize", "x")
    assert result.error["type"] == "runtime"
    message = result.error["message"]
    assert "old text was not found in shop.py" in message
    assert (
        "lines 3-4:\n  3|         for item in items:\n  4|             result += item.price"
        in message
    )
    assert (ws_root / "shop.py").read_text() == SOURCE


def test_missing_without_anything_similar(call, ctx):
    result = _edit(call, ctx, "zzzz qqqq", "x")
    assert "No similar lines were found" in result.error["message"]


@pytest.mark.parametrize(
    ("old", "fragment"),
    [
        ("result = 0", "occurs 2 times in shop.py (lines 2, 8, 0-based)"),
        (
            "for item in items:\n            result",
            "occurs 2 times in shop.py (lines 3, 9, 0-based)",
        ),
        # whitespace-tolerant matching that is not unique is refused too
        (
            "result = 0\nfor item in items:",
            "ignoring whitespace it occurs 2 times in shop.py (lines 2, 8",
        ),
    ],
)
def test_ambiguous_matches_are_refused_with_count_and_lines(call, ctx, ws_root, old, fragment):
    result = _edit(call, ctx, old, "changed")
    assert result.error["type"] == "runtime"
    assert fragment in result.error["message"]
    assert (ws_root / "shop.py").read_text() == SOURCE


def test_overlapping_occurrences_are_ambiguous(call, make_ctx, ws_root):
    (ws_root / "a.txt").write_text("aaa\n")
    result = call(make_ctx("dev", "auto"), "edit_file", path="a.txt", old="aa", new="b")
    assert "occurs 2 times" in result.error["message"]


def test_crlf_files_keep_their_line_endings(call, make_ctx, ws_root):
    (ws_root / "win.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    result = call(
        make_ctx("dev", "auto"), "edit_file", path="win.txt", old="two\nthree", new="2\n3"
    )
    assert result.ok, result.error
    assert (ws_root / "win.txt").read_bytes() == b"one\r\n2\r\n3\r\n"


def test_successive_edits_build_on_pending_proposals(call, make_ctx, ws_root):
    (ws_root / "shop.py").write_text(SOURCE)
    ctx = make_ctx("dev", "never")
    first = _edit(call, ctx, "result += 1", "result += 2").output
    second = _edit(call, ctx, "result += 2", "result += 3").output
    assert "-            result += 2\n+            result += 3\n" in second["diff"]
    assert ctx.proposals.resolve(first["proposal_id"], "accepted") == "applied"
    assert ctx.proposals.resolve(second["proposal_id"], "accepted") == "applied"
    assert "result += 3" in (ws_root / "shop.py").read_text()


@pytest.mark.parametrize(
    ("args", "etype", "fragment"),
    [
        (
            {"path": "nope.py", "old": "a", "new": "b"},
            "runtime",
            "file not found: nope.py (use write_file",
        ),
        ({"path": "shop.py", "old": "x", "new": "x"}, "validation", "'old' and 'new' are the same"),
        ({"path": "shop.py", "old": "", "new": "x"}, "validation", "'old'"),
        ({"path": "shop.py", "old": "a"}, "validation", "'new': Field required"),
        (
            {"path": "../shop.py", "old": "a", "new": "b"},
            "permission",
            "outside the workspace root",
        ),
        ({"path": "bin.dat", "old": "a", "new": "b"}, "runtime", "binary file"),
        (
            {"path": "shop.py", "old": "def total(self, items):", "new": "def total(self, items:"},
            "runtime",
            "syntax errors",
        ),
        # a part of a line replaced into a syntax error: the error shows the whole line
        (
            {"path": "shop.py", "old": "item.price", "new": "item.price +"},
            "runtime",
            "`old` is part of the line 'result += item.price': to change that line, give it whole",
        ),
    ],
)
def test_errors(call, ctx, ws_root, args, etype, fragment):
    (ws_root / "bin.dat").write_bytes(b"a\x00b")
    if "syntax" in fragment:
        pytest.importorskip("agentls.analysis.syntax")
    result = call(ctx, "edit_file", **args)
    assert result.error["type"] == etype
    assert fragment in result.error["message"]
    assert (ws_root / "shop.py").read_text() == SOURCE


@pytest.mark.parametrize(
    ("text", "old", "new", "expected"),
    [
        # the line's closing ':' written into new but not old (benchmark hint_param): not doubled
        ("def find(users, uid):\n    return uid\n", "def find(users, uid)", "def find(users: list, uid: int) -> dict:",
         "def find(users: list, uid: int) -> dict:\n    return uid\n"),
        ("x = f(a);\n", "x = f(a)", "x = f(a, b);", "x = f(a, b);\n"),
        # what follows is kept when new does not end with it, or when it is code
        ("def find(users, uid):\n    return uid\n", "def find(users, uid)", "def find(users, uid: int)",
         "def find(users, uid: int):\n    return uid\n"),
        ("total = a + b\n", "total = a", "total = a + b", "total = a + b + b\n"),
    ],
)
def test_the_rest_of_the_line_new_already_ends_with_is_not_doubled(
    text: str, old: str, new: str, expected: str
) -> None:
    from agentls.tools.filesystem.matching import replace_unique

    assert replace_unique(text, old, new, "f.py").text == expected


def test_a_line_removed_without_its_indentation_goes_whole(call, ctx, ws_root):
    # the 1.5B removed `print(...)\n` and left its indentation to join the next line
    # (refused as an IndentationError); the line goes, indentation and all
    (ws_root / "pipe.py").write_text("def process(items):\n    print('DEBUG', items)\n    return items\n")
    out = _edit(call, ctx, "print('DEBUG', items)\n", "", path="pipe.py")
    assert out.ok, out.error
    assert (ws_root / "pipe.py").read_text() == "def process(items):\n    return items\n"
    # a line given twice over is still ambiguous: nothing is guessed
    again = _edit(call, ctx, "result = 0\n", "")
    assert not again.ok
