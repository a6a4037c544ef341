"""`agentls run --approve auto` on a full disk and on a read-only filesystem, each a small
tmpfs in a mount namespace of its own (`unshare -rm`): the model is told a `runtime`
error naming the cause and saying nothing was changed — never "stale", never invited to
redo it —, the file is intact and no temporary file is left beside it."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.cli.durable_harness import AGENTLS, edit_script


def _namespaces() -> str | None:
    try:
        proc = subprocess.run(["unshare", "-rm", "true"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return None if proc.returncode == 0 else proc.stderr.strip() or "unshare -rm failed"


_WHY = _namespaces()
pytestmark = pytest.mark.skipif(_WHY is not None, reason=f"no user and mount namespaces: {_WHY}")

FILL = "dd if=/dev/zero of={mount}/fill bs=4k 2>/dev/null; true"
READ_ONLY = "mount -o remount,ro {mount}"


def _run_in(tmp_path: Path, root: Path, mount: Path, then: str) -> tuple[subprocess.CompletedProcess[str], str, str]:
    """Mount a 256 KB tmpfs at `mount`, put data.txt in it, `then` (fill it, make it
    read-only), run the edit; what the run printed, data.txt and the mount's listing after."""
    script = edit_script(tmp_path, "edit", f"{mount.relative_to(root)}/data.txt".lstrip("./"), "a\n", "b\n")
    after, listing = tmp_path / "after.txt", tmp_path / "listing.txt"
    run = [*AGENTLS, "run", "Change a to b in data.txt", "--workspace", str(root), "--model", f"replay:{script}",
           "--approve", "auto", "--json"]  # fmt: skip
    shell = " && ".join([
        f"mount -t tmpfs -o size=256k tmpfs {mount}",
        f"printf 'a\\n' > {mount}/data.txt",
        then.format(mount=mount),
        f"({shlex.join(run)}; cat {mount}/data.txt > {after}; ls -A {mount} > {listing})",
    ])  # fmt: skip
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", shell], capture_output=True, text=True, timeout=120)
    return proc, after.read_text(), listing.read_text()


def _told(stderr: str) -> str:
    (line,) = [line for line in stderr.splitlines() if line.lstrip().startswith("✗ edit_file:")]
    return line


def test_a_full_disk_under_the_whole_workspace_is_a_runtime_error(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    proc, data, listing = _run_in(tmp_path, root, root, FILL)
    told = _told(proc.stderr)
    assert '{"type": "runtime"' in told and "No space left on device (ENOSPC)" in told
    assert "nothing was changed" in told and "stale" not in told and "Read data.txt again" not in told
    assert data == "a\n" and set(listing.split()) == {"data.txt", "fill", ".agentls"}
    assert "not applied (it could not be written)" in json.loads(proc.stdout)["summary"]


@pytest.mark.parametrize(
    ("then", "cause"),
    [(FILL, "No space left on device (ENOSPC)"), (READ_ONLY, "Read-only file system (EROFS)")],
    ids=["full", "read-only"],
)
def test_a_failing_filesystem_under_the_file_is_a_runtime_error_in_the_trace(
    tmp_path: Path, then: str, cause: str
) -> None:
    """The file on its own tmpfs (the trace on the workspace's disk records what the
    model was told; the temporary file goes beside the target and is removed)."""
    root = tmp_path / "ws"
    (root / "disk").mkdir(parents=True)
    proc, data, listing = _run_in(tmp_path, root, root / "disk", then)
    run_id = json.loads(proc.stdout)["runId"]
    trace = json.loads((root / ".agentls" / "runs" / f"{run_id}.json").read_text("utf-8"))
    (call, *_) = [c for c in trace["toolCalls"] if c["name"] == "edit_file"]
    assert call["error"]["type"] == "runtime", call
    message = call["error"]["message"]
    assert cause in message and "nothing was changed" in message and "stale" not in message
    assert "making it again will fail the same way" in message
    (record,) = trace["proposals"]
    assert record["status"] == "failed" and record["error"]["type"] == "runtime"
    assert data == "a\n" and set(listing.split()) <= {"data.txt", "fill"}
    assert list((root / ".agentls" / "tmp").iterdir()) == []
