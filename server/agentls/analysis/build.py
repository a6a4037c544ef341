"""The cold index: parse and extract many files on every core.

Workers are forked processes that read files from disk themselves and send back
extracted FileIndex objects (never trees). Small jobs stay in process.
Must not know: resolution, LSP.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import threading
from collections.abc import Callable, Iterator

from agentls.analysis.grammar import parse_file
from agentls.analysis.model import FileIndex
from agentls.workspace.documents import MAX_FILE_BYTES

_root = ""
_occurrences = False


def _init(root: str, occurrences: bool) -> None:
    global _root, _occurrences
    _root, _occurrences = root, occurrences
    gc.disable()  # workers make many short-lived objects and no long-lived cycles


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic GC held off, then restored: building and questions make many long-lived,
    acyclic objects, and the collections their allocation sets off would walk them all."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def index_one(root: str, rel: str, occurrences: bool = False) -> FileIndex | None:
    full = os.path.join(root, rel)
    try:
        st = os.stat(full)
        if st.st_size > MAX_FILE_BYTES:
            return None
        with open(full, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None  # binary
    result = parse_file(rel, data, st.st_mtime_ns, occurrences=occurrences)
    return result[0] if result else None


def _work(chunk: list[str]) -> list[FileIndex]:
    out = []
    for rel in chunk:
        fi = index_one(_root, rel, _occurrences)
        if fi is not None:
            out.append(fi)
    return out


def _chunks(paths: list[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(paths), size):
        yield paths[i : i + size]


def index_files(
    root: str,
    paths: list[str],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
    occurrences: bool = False,
) -> Iterator[FileIndex]:
    """Yield the FileIndex of each path that parses (order not kept); with
    `occurrences`, their occurrence tables filled too."""
    total = len(paths)
    done = 0
    if jobs <= 1 or total < 64:
        with gc_paused():
            for rel in paths:
                fi = index_one(root, rel, occurrences)
                done += 1
                if progress and (done % 50 == 0 or done == total):
                    progress(done, total)
                if fi is not None:
                    yield fi
        return
    # big files first so the last chunk is not a straggler
    sizes = {}
    for rel in paths:
        try:
            sizes[rel] = os.stat(os.path.join(root, rel)).st_size
        except OSError:
            sizes[rel] = 0
    ordered = sorted(paths, key=lambda p: -sizes[p])
    chunk = max(4, min(64, total // (jobs * 16) or 4))
    # fork is fast but unsafe once other threads exist (a lock held by another thread at
    # fork time is held forever in the child): the language server builds from a worker
    # thread, so there the pool comes from a clean fork server instead.
    ctx: mp.context.BaseContext
    if threading.active_count() > 1:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["agentls.analysis.build"])
    else:
        ctx = mp.get_context("fork")
    pool = ctx.Pool(jobs, initializer=_init, initargs=(root, occurrences))
    try:
        for batch in pool.imap_unordered(_work, _chunks(ordered, chunk)):
            done += chunk
            if progress:
                progress(min(done, total), total)
            yield from batch
    finally:
        pool.terminate()
        pool.join()
        if ctx.get_start_method() == "forkserver":
            # the pool's locks are semaphores the resource tracker holds until they are
            # freed: free them first (the pool is a cycle), or the tracker, stopped,
            # reports them leaked and their finalizers fail on the server's stderr
            del pool
            gc.collect()
            _release_helpers()


def _release_helpers() -> None:
    """Stop the fork server and the resource tracker a pool leaves running (~30 MB the
    server would carry for nothing between builds; the next pool starts them again)."""
    from multiprocessing import forkserver, resource_tracker

    for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
        stop = getattr(helper, "_stop", None)
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()
