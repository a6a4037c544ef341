"""How many threads the embedded model uses: the cores the rest of the machine leaves free.

llama.cpp on 2 cores: 2 threads evaluate a prompt faster than 1 on an idle machine, and much
slower when another process keeps the second core busy (the threads wait for each other).
So by default (`AGENTLS_LOCAL_THREADS` unset or `auto`) each turn uses as many threads as
there are cores not busy with other processes since the previous turn: /proc/stat's busy
time less this process's own CPU time, over the wall time between two samples. Elsewhere
(no /proc/stat) it stays at 1. A number in `AGENTLS_LOCAL_THREADS` fixes the count.
Must not know: llama.cpp, the agent.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

MAX_THREADS = 8
#: Samples closer together than this say little: the last decision is kept.
MIN_INTERVAL_S = 0.5
Sample = tuple[float, float, float]  # (machine busy CPU-seconds, own CPU-seconds, wall time)


def _proc_stat_busy() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 8:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, *rest = (int(v) for v in fields[1:])
    steal = rest[0] if rest else 0
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_cpu() -> float:
    t = os.times()
    return t.user + t.system


class CoreShare:
    """Threads for the next turn: the cores other processes left free since the last one."""

    def __init__(
        self,
        cores: int | None = None,
        busy: Callable[[], float | None] = _proc_stat_busy,
        own: Callable[[], float] = _own_cpu,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cores = max(1, min(cores or os.cpu_count() or 1, MAX_THREADS))
        self._busy, self._own, self._clock = busy, own, clock
        self._last = self._sample()
        self.threads = 1 if self._last is None else self.cores

    def _sample(self) -> Sample | None:
        busy = self._busy()
        return None if busy is None else (busy, self._own(), self._clock())

    def others(self) -> float | None:
        """Cores busy with other processes since the last sample (None: not known)."""
        now = self._sample()
        if now is None or self._last is None:
            return None
        elapsed = now[2] - self._last[2]
        if elapsed < MIN_INTERVAL_S:
            return None
        busy = (now[0] - self._last[0]) - (now[1] - self._last[1])
        self._last = now
        return max(busy, 0.0) / elapsed

    def next_threads(self) -> int:
        others = self.others()
        if others is not None:
            self.threads = max(1, min(self.cores, self.cores - round(others)))
        return self.threads
