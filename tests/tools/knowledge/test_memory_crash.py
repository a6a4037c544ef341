"""The memory store (SQLite, WAL) survives a kill at any moment: a writer killed after it
reported N committed memories leaves a database that passes SQLite's integrity check,
holds at least those N, and takes new writes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentls.tools.knowledge.memory import MemoryStore

WRITER = textwrap.dedent("""
    import sys
    from agentls.tools.knowledge.memory import MemoryStore
    store = MemoryStore.for_workspace(sys.argv[1])
    for n in range(100000):
        store.add(f"memory number {n} about the parser " + "x" * 200, tags=["t"])
        print(n + 1, flush=True)
""")


@pytest.mark.parametrize("kill_after", [1, 37, 150])
def test_a_writer_killed_mid_stream_leaves_a_sound_database(tmp_path: Path, kill_after: int) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    committed = 0
    while committed < kill_after:
        committed = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)  # while the next ones are being written
    proc.wait()
    db = tmp_path / ".agentls" / "memory.db"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        fts = conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")
        assert fts is not None
    assert rows >= committed
    with MemoryStore.for_workspace(tmp_path) as store:
        store.add("after the crash")
        assert store.search("crash")[0]["text"] == "after the crash"
        assert len(store.search("parser", limit=1000)) == rows
