"""The repo map (analysis/repo_map.py): files ranked by how much the rest of the code
refers to them, focus files first, definitions with signatures, cut to the budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex

FILES = {
    "core.py": "def helper(x: int) -> int:\n    return x\n\n\nclass Store:\n    def get(self, key: str) -> str:\n        return key\n",
    "a.py": "from core import helper, Store\n\n\ndef run_a():\n    return helper(1), Store()\n",
    "b.py": "from core import helper\n\n\ndef run_b():\n    return helper(2)\n",
    "lonely.py": "def unused_thing(value):\n    return value\n",
}


@pytest.fixture
def index(tmp_path: Path) -> WorkspaceIndex:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    ix = WorkspaceIndex(tmp_path, jobs=1, write_cache=False)
    ix.build()
    return ix


def test_the_most_referred_to_file_comes_first_with_signatures(index: WorkspaceIndex) -> None:
    text = index.repo_map(4000)
    lines = text.splitlines()
    assert lines[:4] == ["core.py", "  def helper(x: int) -> int", "  class Store", "    def get(self, key: str) -> str"]
    assert {"a.py", "b.py", "lonely.py"} <= set(lines)


def test_focus_files_come_first(index: WorkspaceIndex) -> None:
    assert index.repo_map(4000, ["lonely.py"]).splitlines()[0] == "lonely.py"


@pytest.mark.parametrize("budget", [40, 80, 120, 200])
def test_the_map_keeps_to_its_budget(index: WorkspaceIndex, budget: int) -> None:
    text = index.repo_map(budget)
    body = [line for line in text.splitlines() if not line.startswith(("Other files", "("))]
    assert sum(len(line) + 1 for line in body) <= budget
    assert text.splitlines()[0] == "core.py"  # the top-ranked file is never the one dropped
    if budget <= 80:
        assert "more files not shown" in text or "Other files:" in text


def test_the_map_is_kept_until_a_file_changes(index: WorkspaceIndex, tmp_path: Path) -> None:
    first = index.repo_map(4000)
    assert index.repo_map(4000) is first  # kept: every run of a server asks for it
    (tmp_path / "b.py").write_text("from core import helper\n\n\ndef run_b(flag: bool):\n    return helper(2)\n")
    index.update_file("b.py")
    assert "def run_b(flag: bool)" in index.repo_map(4000)
    index.remove_file("lonely.py")
    assert "lonely.py" not in index.repo_map(4000)


def test_a_name_many_files_define_links_none_of_them(tmp_path: Path) -> None:
    """`get` is defined in ten files: a file that says `get` does not lift them all."""
    for i in range(10):
        (tmp_path / f"res{i}.py").write_text("def get():\n    return 1\n")
    (tmp_path / "core.py").write_text("def helper():\n    return 2\n")
    for i in range(3):
        (tmp_path / f"user{i}.py").write_text("from core import helper\nhelper()\nget()\n")
    ix = WorkspaceIndex(tmp_path, jobs=1, write_cache=False)
    ix.build()
    assert ix.repo_map(4000).splitlines()[0] == "core.py"
