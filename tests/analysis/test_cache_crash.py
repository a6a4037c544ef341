"""The index cache survives a kill at any moment: a process killed while saving leaves
the last whole cache (or none) and a temporary file the next save removes; a torn or
corrupt cache (cut short, a flipped byte) is detected, never served: the index is built
cold, answers as a fresh one does, and writes a whole cache again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentls.analysis import cache
from agentls.analysis.index import WorkspaceIndex

SAVER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from agentls.analysis import cache
    from agentls.analysis.index import WorkspaceIndex
    root = Path(sys.argv[1])
    index = WorkspaceIndex(root, cache_dir=False)
    index.build()
    files = dict(index.state.files)
    dump = cache.pickle.dump
    def announced(obj, fh, **kw):  # the event the test kills on: the payload's dump begins
        if obj is files:
            print("dumping", flush=True)
        return dump(obj, fh, **kw)
    cache.pickle.dump = announced
    for n in range(1000):
        cache.save(root / ".agentls" / "index", root, files)
""")


def _workspace(root: Path, modules: int = 300) -> Path:
    root.mkdir()
    for i in range(modules):
        (root / f"mod{i}.py").write_text(
            "".join(f"def f{i}_{j}(x):\n    return helper(x) + {j}\n\n" for j in range(40))
            + "def helper(x):\n    return x\n",
            "utf-8",
        )
    (root / "main.py").write_text("from mod1 import f1_3\n\nprint(f1_3(2))\n", "utf-8")
    return root


def _definition(index: WorkspaceIndex) -> object:
    return index.definition("main.py", 2, 7)


@pytest.mark.parametrize("saves", [1, 2, 3])
def test_a_kill_while_saving_leaves_a_whole_cache_or_none(tmp_path: Path, saves: int) -> None:
    root = _workspace(tmp_path / "ws")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", SAVER, str(root)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    for _ in range(saves):  # killed during save number `saves` (its dump is under way)
        assert proc.stdout.readline() == "dumping\n"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    folder = root / ".agentls" / "index"
    loaded = cache.load(folder, root)
    assert len(loaded) in (0, 301)  # never a part of it
    cache.save(folder, root, loaded)  # the next save sweeps what the killed one left
    assert sorted(p.name for p in folder.iterdir()) == ["index.pickle"]


@pytest.mark.parametrize("damage", ["cut", "flip", "empty"])
def test_a_torn_cache_is_rebuilt_never_served(tmp_path: Path, damage: str) -> None:
    root = _workspace(tmp_path / "ws", modules=20)
    fresh = WorkspaceIndex(root)
    fresh.build()
    expected = _definition(fresh)
    path = root / ".agentls" / "index" / "index.pickle"
    data = bytearray(path.read_bytes())
    if damage == "cut":
        data = data[: len(data) * 2 // 3]
    elif damage == "flip":
        data[len(data) // 2] ^= 0x55
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert cache.load(path.parent, root) == {}
    again = WorkspaceIndex(root)
    again.build()
    assert _definition(again) == expected
    assert len(cache.load(path.parent, root)) == 21  # written whole again
