"""The Landlock launcher on its own: a path it cannot open gets no rule (and does not stop
the launch), and any step that fails stops the launch with exit code 126 before the
command runs — never a less confined command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentls.tools.sandbox import landlock_status
from agentls.tools.sandbox.landlock import CHILD

pytestmark = pytest.mark.skipif(
    not landlock_status()[0], reason=f"Landlock unusable here: {landlock_status()[1]}"
)


def launch(spec: dict[str, object], command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-I", CHILD, json.dumps(spec), "--", "/bin/sh", "-c", command]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=30)


def test_unreachable_paths_get_no_rule(tmp_path: Path) -> None:
    spec = {"read": ["/usr", "/lib", "/lib64", str(tmp_path / "missing")], "write": [str(tmp_path)]}
    done = launch(spec, "echo ok > out.txt; cat out.txt", tmp_path)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="bind mounts are made as root only")
def test_a_failing_step_never_runs_the_command(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    spec = {
        "read": ["/usr", "/lib", "/lib64"],
        "write": [str(tmp_path)],
        "binds": [[str(tmp_path / "no-such-source"), str(tmp_path), True]],
    }
    done = launch(spec, f"touch {marker}", tmp_path)
    assert done.returncode == 126 and "not run" in done.stderr
    assert not marker.exists()


def test_a_bad_spec_never_runs_the_command(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    argv = [sys.executable, "-I", CHILD, "{not json", "--", "/bin/sh", "-c", f"touch {marker}"]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert done.returncode == 126 and not marker.exists()
