"""The workspace maps by name (which files hold a word, where a name is defined at module
or class level) and the remembered reference searches stay right as files change, are
added and removed; reference searches answer in slices that add up to the whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.analysis.index import WorkspaceIndex
from agentls.analysis.references import ContentModified
from agentls.analysis.remembered import REMEMBERED
from tests.analysis.workspace import built_index, write_files

FILES = {
    "lib.py": "def helper(x):\n    return x\n\n\nclass Box:\n    def size(self):\n        return 1\n",
    "use.py": "from lib import helper\n\n\ndef main():\n    return helper(2) + helper(3)\n",
    "decoy.py": "def helper(x):\n    return -x\n\n\nhelper(1)\n",
}


@pytest.fixture
def ix(tmp_path: Path) -> WorkspaceIndex:
    return built_index(tmp_path, FILES)


def _refs(ix: WorkspaceIndex) -> list[tuple[str, tuple[int, int]]]:
    return [(loc.path, loc.start) for loc in ix.references("lib.py", 0, 5).locations]


def test_word_map_and_definitions_follow_changes(ix: WorkspaceIndex) -> None:
    assert ix.files_with_word("helper") == {"lib.py", "use.py", "decoy.py"}
    assert sorted(p for p, _ in ix.defs_by_name()["helper"]) == ["decoy.py", "lib.py"]
    assert [p for p, _ in ix.defs_by_name()["size"]] == ["lib.py"]
    (ix.root / "decoy.py").write_text("def other():\n    return 0\n")
    ix.update_file("decoy.py")
    assert ix.files_with_word("helper") == {"lib.py", "use.py"}
    assert [p for p, _ in ix.defs_by_name()["helper"]] == ["lib.py"]
    assert [p for p, _ in ix.defs_by_name()["other"]] == ["decoy.py"]
    (ix.root / "new.py").write_text("from lib import helper\nhelper(9)\n")
    ix.update_file("new.py")
    assert "new.py" in ix.files_with_word("helper")
    ix.remove_file("lib.py")
    assert "lib.py" not in ix.files_with_word("helper")
    assert "helper" not in ix.defs_by_name() and "size" not in ix.defs_by_name()


def test_occurrences_of_finds_every_use_and_only_it(ix: WorkspaceIndex) -> None:
    table = ix.ensure_occurrences("use.py")
    found = ix.occurrences_of("use.py", "helper")
    assert [table.text(o) for o in found] == ["helper"] * 3
    assert found == sorted(found)
    assert all(table.text(o) != "helper" for o in range(len(table.start)) if o not in found)
    assert ix.occurrences_of("use.py", "nowhere") == []


def test_a_remembered_search_is_forgotten_when_a_file_changes(ix: WorkspaceIndex) -> None:
    first = _refs(ix)
    assert [p for p, _ in first] == ["lib.py", "use.py", "use.py", "use.py"]
    assert _refs(ix) == first  # remembered
    data = (ix.root / "use.py").read_bytes()
    added = data + b"\n\nvalue = helper(4)\n"
    (ix.root / "use.py").write_bytes(added)
    ix.update_file("use.py")
    assert _refs(ix) == [*first, ("use.py", (7, 8))]


def test_only_the_newest_searches_are_remembered(ix: WorkspaceIndex) -> None:
    from agentls.analysis.keys import Key

    keys = [Key("lib.py", 0, f"k{i}") for i in range(REMEMBERED + 1)]
    for key in keys:
        ix.remembered.put(key, ix.generation, {})
    assert len(ix.remembered.entries) == REMEMBERED
    assert ix.remembered.get(keys[0], ix.generation) is None
    assert ix.remembered.get(keys[-1], ix.generation) == {}
    assert ix.remembered.get(keys[-1], ix.generation + 1) is None  # another generation: all forgotten
    assert not ix.remembered.entries


def test_remembered_searches_are_bounded_by_the_uses_they_hold(ix: WorkspaceIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    from array import array

    from agentls.analysis import remembered
    from agentls.analysis.keys import Key

    monkeypatch.setattr(remembered, "REMEMBERED_USES", 10)
    big = {"lib.py": (array("I", range(6)), "helper")}
    ix.remembered.put(Key("lib.py", 0, "a"), ix.generation, big)
    ix.remembered.put(Key("lib.py", 0, "b"), ix.generation, big)  # 12 uses > 10: a goes
    assert list(ix.remembered.entries) == [Key("lib.py", 0, "b")] and ix.remembered.uses == 6
    ix.remembered.put(Key("lib.py", 0, "b"), ix.generation, big)  # asked again: counted once
    assert ix.remembered.uses == 6


def test_slices_add_up_to_the_whole_and_an_edit_ends_the_stream(ix: WorkspaceIndex) -> None:
    whole = ix.references("lib.py", 0, 5).locations
    ix.remembered.entries.clear()
    sliced = [loc for batch in ix.references_stream("lib.py", 0, 5, True, slice_s=0.0) for loc in batch]
    assert sliced == whole
    ix.remembered.entries.clear()
    stream = ix.references_stream("lib.py", 0, 5, True, slice_s=0.0)
    next(stream)
    ix.update_file("use.py", (ix.root / "use.py").read_bytes() + b"\n")
    with pytest.raises(ContentModified):
        list(stream)


def test_files_unpacked_past_the_limit_are_packed_again_and_answer_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentls.analysis import model

    write_files(tmp_path, FILES)
    first = WorkspaceIndex(tmp_path, cache_dir=tmp_path / "cache", jobs=1)
    first.build()  # writes the cache: the next index loads every file as a blob
    want = [(loc.path, loc.start) for loc in first.references("lib.py", 0, 5).locations]
    want_def = first.definition("use.py", 4, 12).locations
    monkeypatch.setattr(model, "UNPACKED_KEPT", 1)
    monkeypatch.setattr(model, "_UNPACKED", model.deque())
    warm = WorkspaceIndex(tmp_path, cache_dir=tmp_path / "cache", jobs=1)
    assert warm.build()["cached"] == len(FILES)
    assert [(loc.path, loc.start) for loc in warm.references("lib.py", 0, 5).locations] == want
    packed_again = [p for p, fi in warm.files.items() if fi._blob is not None and "symbols" not in _set_slots(fi)]
    assert packed_again, "no file was packed again under a limit of 1"
    assert len(model._UNPACKED) == 1
    assert warm.definition("use.py", 4, 12).locations == want_def
    warm.remembered.entries.clear()
    assert [(loc.path, loc.start) for loc in warm.references("lib.py", 0, 5).locations] == want


def _set_slots(fi: object) -> set[str]:
    out = set()
    for name in ("scopes", "symbols", "occ_start"):
        try:
            object.__getattribute__(fi, name)
            out.add(name)
        except AttributeError:
            pass
    return out
