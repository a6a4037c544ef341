"""Auto threads (llm/local/threads.py): each turn uses the cores other processes left free
since the previous one; the provider switches its llama.cpp context to that count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentls.llm.local.provider import LocalModel
from agentls.llm.local.threads import CoreShare

from .test_local_provider import HISTORY, FakeLlama, gguf_file


class Machine:
    """A scripted /proc/stat busy counter, our own CPU time and a clock."""

    def __init__(self) -> None:
        self.busy, self.own, self.now = 100.0, 5.0, 1000.0

    def run(self, seconds: float, others: float, ours: float) -> None:
        """`seconds` pass with `others` cores busy elsewhere and `ours` cores used by us."""
        self.now += seconds
        self.own += ours * seconds
        self.busy += (others + ours) * seconds

    def share(self, cores: int = 2) -> CoreShare:
        return CoreShare(cores, lambda: self.busy, lambda: self.own, lambda: self.now)


@pytest.mark.parametrize(
    ("others", "ours", "threads"),
    [
        (0.0, 2.0, 2),  # idle machine, we used both cores ourselves: keep both
        (0.1, 1.0, 2),
        (1.0, 1.0, 1),  # another process keeps a core busy: one thread
        (3.5, 1.0, 1),  # overloaded: never below one
    ],
)
def test_threads_follow_what_other_processes_leave_free(others: float, ours: float, threads: int) -> None:
    machine = Machine()
    share = machine.share()
    assert share.threads == 2  # starts optimistic, on a machine where it can measure
    machine.run(10, others, ours)
    assert share.next_threads() == threads


def test_samples_too_close_together_keep_the_last_decision() -> None:
    machine = Machine()
    share = machine.share()
    machine.run(10, 1.0, 1.0)
    assert share.next_threads() == 1
    machine.run(0.1, 0.0, 0.0)  # 0.1 s of idle says nothing
    assert share.next_threads() == 1
    machine.run(5, 0.0, 1.0)
    assert share.next_threads() == 2


def test_without_proc_stat_it_stays_at_one() -> None:
    share = CoreShare(2, lambda: None)
    assert share.threads == 1 and share.next_threads() == 1


class ThreadedLlama(FakeLlama):
    """A fake whose context records set_n_threads, like llama_cpp's LlamaContext."""

    def __init__(self, outputs: list[str]) -> None:
        super().__init__(outputs)
        self.set_calls: list[tuple[int, int]] = []
        self._ctx = self

    def set_n_threads(self, n: int, n_batch: int) -> None:
        self.set_calls.append((n, n_batch))


async def test_the_provider_switches_threads_between_turns(tmp_path: Path, monkeypatch: Any) -> None:
    machine = Machine()
    monkeypatch.setattr("agentls.llm.local.provider.CoreShare", lambda: machine.share())
    fake = ThreadedLlama(["[]", "[]", "[]"])
    model = LocalModel(gguf_file(tmp_path), llama_factory=fake.factory, grammar_factory=lambda s, _l: s)
    await model.complete(HISTORY)
    assert fake.init_kwargs[0]["n_threads"] == 2 and model.threads == 2
    machine.run(10, 1.0, 1.0)  # someone else took a core
    await model.complete(HISTORY)
    assert fake.set_calls == [(1, 1)] and model.threads == 1
    machine.run(10, 0.0, 1.0)
    await model.complete(HISTORY)
    assert fake.set_calls == [(1, 1), (2, 2)]


async def test_a_fixed_thread_count_never_changes(tmp_path: Path) -> None:
    fake = ThreadedLlama(["[]", "[]"])
    model = LocalModel(gguf_file(tmp_path), n_threads=1, llama_factory=fake.factory, grammar_factory=lambda s, _l: s)
    await model.complete(HISTORY)
    await model.complete(HISTORY)
    assert fake.init_kwargs[0]["n_threads"] == 1 and fake.set_calls == []
