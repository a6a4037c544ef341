"""MemoryStore: lazy creation, bm25 ranking, persistence, robustness, threads."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentls.tools.knowledge.memory import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    s = MemoryStore.for_workspace(tmp_path)
    yield s
    s.close()


def test_search_without_database_returns_nothing_and_creates_nothing(tmp_path: Path) -> None:
    store = MemoryStore.for_workspace(tmp_path)
    assert store.search("anything") == []
    assert store.count() == 0
    assert store.get(1) is None
    assert not (tmp_path / ".agentls").exists()


def test_first_write_creates_the_database_in_wal_mode(tmp_path: Path, store: MemoryStore) -> None:
    memory_id = store.add("the build uses hatchling", ["build"], run_id="r1", source="user")
    assert (tmp_path / ".agentls" / "memory.db").is_file()
    assert (tmp_path / ".agentls" / ".gitignore").read_text() == "*\n"
    assert store._conn is not None
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    saved = store.get(memory_id)
    assert saved is not None
    assert saved["text"] == "the build uses hatchling"
    assert saved["tags"] == ["build"]
    assert (saved["run_id"], saved["source"]) == ("r1", "user")


def test_an_existing_agentls_folder_is_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / ".agentls").mkdir()
    with MemoryStore.for_workspace(tmp_path) as store:
        store.add("x")
    assert not (tmp_path / ".agentls" / ".gitignore").exists()


def test_root_folder_means_the_workspace_database(tmp_path: Path) -> None:
    assert MemoryStore(tmp_path).path == tmp_path / ".agentls" / "memory.db"
    assert MemoryStore(tmp_path / "x.db").path == tmp_path / "x.db"


def test_more_relevant_memory_ranks_first(store: MemoryStore) -> None:
    weak = store.add("the parser handles many languages and formats and other things besides")
    strong = store.add("parser cache: the parser keeps its parser cache in .agentls")
    store.add("unrelated note about releases")
    hits = store.search("parser cache", limit=10)
    assert [h["id"] for h in hits] == [strong, weak]
    assert hits[0]["score"] > hits[1]["score"] > 0


def test_tags_are_searchable_but_weigh_less_than_text(store: MemoryStore) -> None:
    tagged = store.add("a note", ["deployment"])
    in_text = store.add("deployment happens on friday")
    hits = store.search("deployment")
    assert {h["id"] for h in hits} == {tagged, in_text}
    assert hits[0]["id"] == in_text


@pytest.mark.parametrize(
    ("query", "expected_texts"),
    [
        ("workspace", ["the workspace index lives in memory"]),
        ("work", ["the workspace index lives in memory"]),  # prefix on the last term
        ("INDEX", ["the workspace index lives in memory"]),  # case-insensitive
        ("cafe", ["café opens at nine"]),  # diacritics removed
        ("nothing-here", []),
        ("!!! ???", []),
        ('" OR NEAR(', []),
    ],
)
def test_search_cases(store: MemoryStore, query: str, expected_texts: list[str]) -> None:
    store.add("the workspace index lives in memory")
    store.add("café opens at nine")
    assert [h["text"] for h in store.search(query)] == expected_texts


def test_limit_is_respected(store: MemoryStore) -> None:
    for i in range(8):
        store.add(f"repeated fact number {i}")
    assert len(store.search("fact", limit=3)) == 3
    assert store.search("fact", limit=0) == []


def test_persists_across_instances(tmp_path: Path) -> None:
    with MemoryStore.for_workspace(tmp_path) as first:
        memory_id = first.add("persisted decision: use sqlite", ["decision"])
    with MemoryStore.for_workspace(tmp_path) as second:
        hits = second.search("sqlite")
        assert [h["id"] for h in hits] == [memory_id]
        assert hits[0]["tags"] == ["decision"]
        assert second.count() == 1


def test_second_instance_sees_a_database_created_later(tmp_path: Path) -> None:
    reader = MemoryStore.for_workspace(tmp_path)
    assert reader.search("later") == []
    with MemoryStore.for_workspace(tmp_path) as writer:
        writer.add("written later")
    assert [h["text"] for h in reader.search("later")] == ["written later"]
    reader.close()


def test_delete_removes_from_search(store: MemoryStore) -> None:
    memory_id = store.add("temporary fact")
    assert store.delete(memory_id)
    assert store.search("temporary") == []
    assert not store.delete(memory_id)


def test_recent_is_newest_first(store: MemoryStore) -> None:
    ids = [store.add(f"note {i}") for i in range(3)]
    assert [m["id"] for m in store.recent(2)] == [ids[2], ids[1]]


def test_lone_surrogates_do_not_break_writes_or_searches(store: MemoryStore) -> None:
    memory_id = store.add("broken \ud800 text", ["t\udfff"])
    assert store.get(memory_id) is not None
    assert store.search("broken \ud800") != []


def test_concurrent_writers_and_readers(store: MemoryStore) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(10):
                store.add(f"thread {n} fact {i}")
                store.search("fact")
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count() == 40


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryStore]:
    store = MemoryStore.for_workspace(tmp_path_factory.mktemp("seeded"))
    for text in ("alpha beta", 'gamma "quoted" delta', "NEAR AND OR NOT", "ünïcödé text"):
        store.add(text, ["tag"])
    yield store
    store.close()


@given(st.text(max_size=60))
@settings(max_examples=200, deadline=None)
def test_arbitrary_queries_never_raise(seeded: MemoryStore, query: str) -> None:
    hits = seeded.search(query, limit=5)
    assert all(isinstance(h["score"], float) for h in hits)


@pytest.mark.parametrize("query", ["alpha", "QUOTED", "near", "unicode", "beta alp"])
def test_seeded_store_finds_words(seeded: MemoryStore, query: str) -> None:
    assert seeded.search(query) != []
