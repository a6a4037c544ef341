"""read_file: line ranges, sources (proposal > buffer > disk), and its errors."""

from __future__ import annotations

import pytest

from agentls.tools.filesystem import read_file as read_file_module

LINES = "".join(f"line {i}\n" for i in range(10))


@pytest.fixture
def ctx(make_ctx, ws_root):
    (ws_root / "ten.txt").write_text(LINES)
    return make_ctx("read-only")


@pytest.mark.parametrize(
    ("args", "first", "end", "count"),
    [
        ({}, 0, 10, 10),
        ({"start_line": 3}, 3, 10, 7),
        ({"start_line": 3, "end_line": 5}, 3, 5, 2),
        ({"end_line": 1}, 0, 1, 1),
        ({"start_line": 9, "end_line": 500}, 9, 10, 1),
        ({"start_line": 4, "end_line": 4}, 4, 4, 0),
    ],
)
def test_line_ranges_are_0_based_end_exclusive(call, ctx, args, first, end, count):
    result = call(ctx, "read_file", path="ten.txt", **args)
    assert result.ok, result.error
    out = result.output
    assert out["start_line"] == first and out["end_line"] == end
    assert out["content"] == "".join(f"line {i}\n" for i in range(first, first + count))
    assert out["total_lines"] == 10 and out["truncated"] is False
    assert out["source"] == "disk" and out["size"] == len(LINES)


@pytest.mark.parametrize(
    ("content", "total"), [("", 0), ("x", 1), ("x\n", 1), ("x\ny", 2), ("\n\n", 2)]
)
def test_total_lines(call, ctx, ws_root, content, total):
    (ws_root / "t.txt").write_text(content)
    out = call(ctx, "read_file", path="t.txt").output
    assert out["total_lines"] == total and out["content"] == content


def test_reads_see_the_runs_pending_proposal_then_the_buffer(call, make_ctx):
    ctx = make_ctx("dev")
    ctx.workspace.open("src/app.py", "def main():\n    return 'buffer'\n", version=2)
    assert call(ctx, "read_file", path="src/app.py").output["source"] == "buffer"
    assert call(ctx, "write_file", path="src/app.py", content="proposed\n").ok
    out = call(ctx, "read_file", path="src/app.py").output
    assert (out["content"], out["source"]) == ("proposed\n", "proposal")
    other_run = make_ctx("dev", workspace=ctx.workspace, proposals=ctx.proposals, run_id="run-2")
    assert call(other_run, "read_file", path="src/app.py").output["source"] == "buffer"


def test_large_files_are_truncated_at_a_line_boundary(call, ctx, ws_root, monkeypatch):
    monkeypatch.setattr(read_file_module, "MAX_CONTENT_BYTES", 100)
    (ws_root / "big.txt").write_text("".join(f"{i:09d}\n" for i in range(50)))  # 10 bytes a line
    out = call(ctx, "read_file", path="big.txt").output
    assert out["truncated"] is True and out["end_line"] == 10 and out["total_lines"] == 50
    assert out["content"].count("\n") == 10
    rest = call(ctx, "read_file", path="big.txt", start_line=10).output
    assert rest["content"].startswith("000000010\n")


def test_one_huge_line_is_cut(call, ctx, ws_root, monkeypatch):
    monkeypatch.setattr(read_file_module, "MAX_CONTENT_BYTES", 100)
    (ws_root / "wide.txt").write_text("x" * 1000 + "\nnext\n")
    out = call(ctx, "read_file", path="wide.txt").output
    assert out["truncated"] is True and len(out["content"]) == 100 and out["end_line"] == 1


@pytest.mark.parametrize(
    ("path", "setup", "etype", "fragment"),
    [
        ("missing.txt", None, "runtime", "file not found: missing.txt"),
        ("src", None, "runtime", "src is a directory"),
        ("blob.bin", "binary", "runtime", "blob.bin is a binary file (9000 bytes)"),
        ("../outside.txt", None, "permission", "resolves outside the workspace root"),
        ("/etc/passwd", None, "permission", "absolute paths are not allowed"),
        ("ten.txt\x00", None, "validation", "NUL byte"),
    ],
)
def test_errors(call, ctx, ws_root, path, setup, etype, fragment):
    if setup == "binary":
        (ws_root / "blob.bin").write_bytes(b"\x89PNG\x00" + b"x" * 8995)
    result = call(ctx, "read_file", path=path)
    assert not result.ok
    assert result.error["type"] == etype
    assert fragment in result.error["message"]


@pytest.mark.parametrize(
    ("args", "etype", "fragment"),
    [
        ({"start_line": 10}, "runtime", "start_line 10 is past the end of ten.txt (10 lines"),
        (
            {"start_line": 5, "end_line": 2},
            "validation",
            "'end_line' (2) must not be before 'start_line' (5)",
        ),
        ({"start_line": -1}, "validation", "'start_line'"),
        ({"start_line": "two"}, "validation", "'start_line'"),
    ],
)
def test_bad_ranges(call, ctx, args, etype, fragment):
    result = call(ctx, "read_file", path="ten.txt", **args)
    assert result.error["type"] == etype
    assert fragment in result.error["message"]
