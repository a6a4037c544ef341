"""Memory of the running process: a sampler of the RSS summed over the process tree, and
the kernel's own peak and current figures (VmHWM, VmRSS, ru_maxrss). Linux only.
Must not know: agentls.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

MB = 1024 * 1024


class TreeRss:
    """Samples the summed RSS of this process and its descendants every 20 ms."""

    def __init__(self) -> None:
        import psutil

        self.proc = psutil.Process()
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        total = 0
        try:
            procs = [self.proc, *self.proc.children(recursive=True)]
        except Exception:
            procs = [self.proc]
        for p in procs:
            with contextlib.suppress(Exception):
                total += p.memory_info().rss
        self.peak = max(self.peak, total)

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self._sample()

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()


def proc_status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def memory(tree: TreeRss) -> dict[str, float]:
    import gc
    import resource

    gc.collect()
    return {
        "vmhwm_mb": round(proc_status("VmHWM") / MB, 1),
        "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "children_ru_maxrss_mb": round(
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
        ),
        "rss_after_gc_mb": round(proc_status("VmRSS") / MB, 1),
        "tree_peak_rss_mb": round(tree.peak / MB, 1),
    }
