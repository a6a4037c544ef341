"""The cold build's worker pool, as the language server runs it (from a thread, so from a
fork server): every file indexed, and afterwards no helper process left running and
nothing on stderr (the pool's semaphores freed before the resource tracker stops: else
it reports them leaked and their finalizers print tracebacks into the editor's log)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    import os, sys, threading
    from agentls.analysis.index import WorkspaceIndex

    def children():
        me = str(os.getpid())
        out = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[1] == me:
                        out.append(pid)
            except OSError:
                pass
        return out

    if __name__ == "__main__":
        ix = WorkspaceIndex(sys.argv[1], cache_dir=False, jobs=2)
        box = {}
        t = threading.Thread(target=lambda: box.update(ix.build()))
        t.start()
        t.join()
        refs = ix.references("m0.py", 0, 4).locations
        print(box["files"], box["parsed"], len(refs), len(children()))
    """
)


def test_pool_build_leaves_no_helpers_and_no_noise(tmp_path: Path) -> None:
    for i in range(80):  # past the in-process limit (64 files)
        (tmp_path / f"m{i}.py").write_text("def f0():\n    return 0\n" if i == 0 else f"from m0 import f0\n\n\ndef g{i}():\n    return f0() + {i}\n")
    script = tmp_path / "run_build.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    files, parsed, refs, helpers = map(int, done.stdout.split())
    assert (files, parsed) == (81, 81)  # the script itself is a Python file of the workspace
    assert refs == 1 + 79 * 2  # the definition, and each importer's import and call
    assert helpers == 0, "the fork server or the resource tracker is still running"
    assert done.stderr == ""
