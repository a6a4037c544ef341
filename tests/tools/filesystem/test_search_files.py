"""search_files: the ripgrep and Python engines give the same answers."""

from __future__ import annotations

import os
import shutil

import pytest

from agentls.tools.filesystem import ripgrep
from agentls.tools.filesystem import search_files as search_module

HAS_RG = shutil.which("rg") is not None
NO_RG = "ripgrep (rg) is not on PATH: apt-get install ripgrep"
ENGINES = [
    "python",
    pytest.param("ripgrep", marks=pytest.mark.skipif(not HAS_RG, reason=NO_RG)),
]


@pytest.fixture(params=ENGINES)
def engine(request, monkeypatch) -> str:
    if request.param == "python":
        monkeypatch.setattr(ripgrep, "find_ripgrep", lambda: None)
    return request.param


@pytest.fixture
def ctx(make_ctx, ws_root, tmp_path):
    files = {
        ".gitignore": "ignored/\n",
        "a.py": "import os\nTODO = 1\n",
        "a/b.py": "# TODO: fix\nvalue = 2  # todo lower\n",
        "a/c.txt": "TODO in text\n",
        "ignored/x.py": "TODO hidden by gitignore\n",
        ".hidden.py": "TODO in a dotfile\n",
        "crlf.txt": "first\r\nTODO crlf\r\n",
        "docs/notes.md": "see a.b(c) for TODO\n",
    }
    for rel, text in files.items():
        path = ws_root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    (ws_root / "blob.bin").write_bytes(b"TODO\x00binary")
    (tmp_path / "outside.py").write_text("TODO outside\n")
    os.symlink(tmp_path / "outside.py", ws_root / "link.py")
    return make_ctx("read-only")


def _hits(result) -> list[tuple[str, int, str]]:
    assert result.ok, result.error
    return [(m["path"], m["line"], m["text"]) for m in result.output["matches"]]


ALL_TODO = [
    (".hidden.py", 0, "TODO in a dotfile"),
    ("a/b.py", 0, "# TODO: fix"),
    ("a/c.txt", 0, "TODO in text"),
    ("a.py", 1, "TODO = 1"),
    ("crlf.txt", 1, "TODO crlf"),
    ("docs/notes.md", 0, "see a.b(c) for TODO"),
]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"query": "TODO"}, ALL_TODO),
        ({"query": "todo"}, [("a/b.py", 1, "value = 2  # todo lower")]),
        ({"query": "TODO", "glob": "*.py"}, [ALL_TODO[0], ALL_TODO[1], ALL_TODO[3]]),
        ({"query": "TODO", "path": "a"}, [ALL_TODO[1], ALL_TODO[2]]),
        ({"query": "TODO", "path": "a/c.txt"}, [ALL_TODO[2]]),
        ({"query": "a.b(c)"}, [ALL_TODO[5]]),  # literal by default
        ({"query": r"^value = \d", "regex": True}, [("a/b.py", 1, "value = 2  # todo lower")]),
        (
            {"query": r"T[O]DO\s(in|crlf)", "regex": True, "glob": "*.txt"},
            [ALL_TODO[2], ALL_TODO[4]],
        ),
        ({"query": "nothing matches this"}, []),
    ],
)
def test_search(call, ctx, engine, args, expected):
    result = call(ctx, "search_files", **args)
    assert _hits(result) == expected
    assert result.output["engine"] == engine
    assert result.output["truncated"] is False


def test_the_result_is_bounded(call, ctx, engine, monkeypatch):
    monkeypatch.setattr(search_module, "MAX_MATCHES", 2)
    result = call(ctx, "search_files", query="TODO")
    assert _hits(result) == ALL_TODO[:2] and result.output["truncated"] is True


@pytest.mark.skipif(not HAS_RG, reason=NO_RG)
def test_a_regex_ripgrep_rejects_falls_back_to_python(call, ctx):
    result = call(ctx, "search_files", query=r"TODO(?= crlf)", regex=True)
    assert _hits(result) == [("crlf.txt", 1, "TODO crlf")]
    assert result.output["engine"] == "python"


@pytest.mark.parametrize(
    ("args", "etype", "fragment"),
    [
        ({"query": "(", "regex": True}, "validation", "'query' is not a valid regular expression"),
        ({"query": ""}, "validation", "'query'"),
        ({"query": "a\nb"}, "validation", "single line"),
        ({"query": "x", "path": "../"}, "permission", "outside the workspace root"),
        ({"query": "x", "path": "link.py"}, "permission", "outside the workspace root"),
        ({"query": "x", "path": "missing"}, "runtime", "path not found: missing"),
    ],
)
def test_errors(call, ctx, engine, args, etype, fragment):
    result = call(ctx, "search_files", **args)
    assert result.error["type"] == etype
    assert fragment in result.error["message"]
