"""`WorkspaceIndex.refresh`: what changed on disk outside the editor — changed, new and
deleted files — is picked up and reported; a file open in the editor is its buffer's, so
the disk under it is not read (nor, if it is deleted there, dropped)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.analysis.workspace import built_index

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def alpha():\n    return 1\n",
    "pkg/b.py": "def beta():\n    return 2\n",
    "pkg/open.py": "def opened():\n    return 3\n",
    "pkg/gone.py": "def gone():\n    return 4\n",
}


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # a new mtime, even on a coarse clock


def test_refresh_picks_up_disk_changes_and_leaves_open_documents_to_their_buffers(tmp_path: Path) -> None:
    index = built_index(tmp_path, FILES)
    index.workspace.open("pkg/open.py", FILES["pkg/open.py"], version=1)
    assert index.refresh() == []
    _touch(tmp_path / "pkg" / "a.py", "def alpha_renamed():\n    return 1\n")
    _touch(tmp_path / "pkg" / "open.py", "def on_disk_only():\n    return 3\n")
    (tmp_path / "pkg" / "new.py").write_text("def fresh():\n    return 5\n")
    (tmp_path / "pkg" / "gone.py").unlink()
    assert sorted(index.refresh()) == ["pkg/a.py", "pkg/gone.py", "pkg/new.py"]
    assert [loc.path for loc in index.find_definitions("alpha_renamed").locations] == ["pkg/a.py"]
    assert [loc.path for loc in index.find_definitions("fresh").locations] == ["pkg/new.py"]
    assert "pkg/gone.py" not in index.files
    assert index.find_definitions("on_disk_only").locations == []  # the buffer is what counts
    (tmp_path / "pkg" / "open.py").unlink()
    assert index.refresh() == [] and "pkg/open.py" in index.files
