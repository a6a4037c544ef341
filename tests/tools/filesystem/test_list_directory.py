"""list_directory: .gitignore honoured, symlinks not followed, bounded output."""

from __future__ import annotations

import os
import sys

import pytest

from agentls.tools.filesystem import list_directory as list_directory_module


@pytest.fixture
def ctx(make_ctx, ws_root, tmp_path):
    (ws_root / ".gitignore").write_text("build/\n*.log\n")
    (ws_root / "build").mkdir()
    (ws_root / "build" / "out.js").write_text("x")
    (ws_root / "debug.log").write_text("x")
    (ws_root / "node_modules" / "pkg").mkdir(parents=True)
    (ws_root / "src" / "nested").mkdir()
    (ws_root / "src" / "nested" / "deep.py").write_text("y = 2\n")
    (ws_root / "src" / "nested" / ".gitignore").write_text("secret.txt\n")
    (ws_root / "src" / "nested" / "secret.txt").write_text("s")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "escaped.txt").write_text("no")
    os.symlink(outside, ws_root / "link_out")
    os.symlink(ws_root / "src", ws_root / "link_src")
    return make_ctx("read-only")


def _entries(result) -> dict[str, tuple[str, int | None]]:
    assert result.ok, result.error
    return {e["path"]: (e["type"], e["size"]) for e in result.output["entries"]}


def test_top_level_listing(call, ctx):
    entries = _entries(call(ctx, "list_directory"))
    assert entries == {
        ".gitignore": ("file", len("build/\n*.log\n")),
        "README.md": ("file", len("# demo\nhello world\n")),
        "link_out": ("symlink", None),
        "link_src": ("symlink", None),
        "src": ("dir", None),
    }


def test_recursive_listing_honours_nested_gitignores_and_never_follows_links(call, ctx):
    result = call(ctx, "list_directory", path=".", recursive=True)
    paths = list(_entries(result))
    assert paths == [
        ".gitignore",
        "README.md",
        "link_out",
        "link_src",
        "src",
        "src/app.py",
        "src/nested",
        "src/nested/.gitignore",
        "src/nested/deep.py",
    ]
    assert result.output["truncated"] is False


def test_a_subfolder(call, ctx):
    result = call(ctx, "list_directory", path="src/nested")
    assert result.output["path"] == "src/nested"
    assert list(_entries(result)) == ["src/nested/.gitignore", "src/nested/deep.py"]


def test_an_ignored_folder_asked_for_explicitly_is_listed(call, ctx):
    assert list(_entries(call(ctx, "list_directory", path="build"))) == ["build/out.js"]


def test_a_symlinked_folder_inside_resolves_to_its_target(call, ctx):
    result = call(ctx, "list_directory", path="link_src")
    assert result.output["path"] == "src"


def test_the_listing_is_bounded(call, ctx, monkeypatch):
    monkeypatch.setattr(list_directory_module, "MAX_ENTRIES", 3)
    result = call(ctx, "list_directory", recursive=True)
    assert len(result.output["entries"]) == 3 and result.output["truncated"] is True


@pytest.mark.parametrize(
    ("path", "etype", "fragment"),
    [
        ("README.md", "runtime", "README.md is a file, not a directory"),
        ("nope", "runtime", "nope is not found"),
        ("link_out", "permission", "outside the workspace root"),
        ("..", "permission", "outside the workspace root"),
        ("/", "permission", "absolute paths are not allowed"),
    ],
)
def test_errors(call, ctx, path, etype, fragment):
    result = call(ctx, "list_directory", path=path)
    assert result.error["type"] == etype
    assert fragment in result.error["message"]


def test_folders_nested_beyond_the_recursion_limit_are_walked(call, ctx, ws_root):
    """Directory depth is input: the walks keep a stack, not Python frames. Shown with
    the recursion limit lowered to 100 frames above this test and a tree 300 deep."""
    from agentls.workspace import FileWalker

    depth = 300
    deep = ws_root / "/".join(["d"] * depth)
    deep.mkdir(parents=True)
    (deep / "bottom.py").write_text("x = 1\n")
    bottom = "/".join(["d"] * depth) + "/bottom.py"
    frames, frame = 0, sys._getframe()
    while frame is not None:
        frames, frame = frames + 1, frame.f_back
    default = sys.getrecursionlimit()
    sys.setrecursionlimit(frames + 100)
    try:
        walked = list(FileWalker(ws_root).walk())
        result = call(ctx, "list_directory", path="d", recursive=True)
    finally:
        sys.setrecursionlimit(default)
    assert bottom in walked
    listed = _entries(result)
    assert listed[bottom] == ("file", 6) and len(listed) == depth
