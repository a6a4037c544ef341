"""How applied proposals are written: all or nothing, nothing left in the user's tree, the
file's mode kept, OS failures (a read-only or immutable file) a `runtime` error that says
nothing changed — never stale —, the write lock between threads, and `.agentls/` ignoring
itself in git whoever makes it."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agentls.analysis import cache
from agentls.tools.audit import AuditLog
from agentls.tools.executor import ToolResult
from agentls.tools.knowledge.memory import MemoryStore
from agentls.tools.proposals import ProposalStore
from agentls.tools.run_trace import RunTrace
from agentls.workspace import Workspace
from agentls.workspace.durable import replace_files, sweep
from agentls.workspace.writelock import WriteLock

APP_OLD = b"def main():\n    return 1\n"
APP_NEW = b"def main():\n    return 2\n"


def _tree(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if ".agentls" not in p.parts}


@contextlib.contextmanager
def _immutable(path: Path) -> Iterator[None]:
    proc = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"chattr +i is not permitted here: {proc.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_write_leaves_nothing_but_the_file_and_keeps_its_mode(ws_root: Path) -> None:
    app = ws_root / "src" / "app.py"
    app.chmod(0o754)
    before = _tree(ws_root)
    replace_files(ws_root, {"src/app.py": APP_NEW, "src/new.py": b"x = 1\n"})
    assert app.read_bytes() == APP_NEW and app.stat().st_mode & 0o777 == 0o754
    assert _tree(ws_root) == before | {"src/new.py"}
    assert list((ws_root / ".agentls" / "tmp").iterdir()) == []


def test_a_read_only_file_fails_the_proposal_as_a_runtime_error(
    ws_root: Path, make_ctx: Callable[..., object], call: Callable[..., ToolResult]
) -> None:
    app = ws_root / "src" / "app.py"
    app.chmod(0o444)
    ctx = make_ctx(approval="auto")
    result = call(ctx, "edit_file", path="src/app.py", old="return 1", new="return 2")
    assert result.error is not None and result.error["type"] == "runtime"
    message = result.error["message"]
    assert "the file is read-only (EACCES)" in message and "nothing was changed" in message
    assert "stale" not in message and "redo" not in message.lower()
    assert app.read_bytes() == APP_OLD and _tree(ws_root) == {"src", "src/app.py", "README.md"}
    (proposal,) = ctx.proposals.list()  # type: ignore[attr-defined]
    assert proposal.status == "failed" and proposal.error == {"type": "runtime", "message": proposal.note}


def test_an_immutable_file_fails_the_proposal_and_names_the_cause(ws_root: Path) -> None:
    app = ws_root / "src" / "app.py"
    store = ProposalStore(Workspace(ws_root))
    proposal = store.propose("src/app.py", APP_OLD, APP_NEW)
    with _immutable(app):
        assert store.resolve(proposal.id, "accepted") == "failed"
    assert "(EPERM)" in (proposal.note or "") and "immutable" in (proposal.note or "")
    assert "nothing was changed" in (proposal.note or "")
    assert app.read_bytes() == APP_OLD and _tree(ws_root) == {"src", "src/app.py", "README.md"}


def test_several_files_are_written_all_or_nothing(ws_root: Path) -> None:
    """The second rename fails (into an immutable folder): the first file is put back."""
    (ws_root / "locked").mkdir()
    (ws_root / "locked" / "b.txt").write_text("b\n")
    store = ProposalStore(Workspace(ws_root))
    changes = [store.change("src/app.py", APP_OLD, APP_NEW), store.change("locked/b.txt", b"b\n", b"B\n")]
    proposal = store.propose_changes(changes, title="two files")
    with _immutable(ws_root / "locked"):
        assert store.resolve(proposal.id, "accepted") == "failed"
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD
    assert (ws_root / "locked" / "b.txt").read_text() == "b\n"
    assert "(EPERM)" in (proposal.note or "")
    assert "nothing was changed" in (proposal.note or "")
    assert list((ws_root / ".agentls" / "tmp").iterdir()) == []


def test_the_trace_journals_a_write_before_it_happens(ws_root: Path) -> None:
    store = ProposalStore(Workspace(ws_root))
    trace = RunTrace(ws_root, "run-j", "goal", store)
    seen: list[str] = []

    def applier(proposal: object) -> None:  # what the trace holds when the write happens
        import json

        seen.append(json.loads(trace.path.read_text("utf-8"))["proposals"][0]["status"])

    store.applier = applier
    proposal = store.propose("src/app.py", APP_OLD, APP_NEW, run_id="run-j")
    assert store.resolve(proposal.id, "accepted") == "applied"
    assert seen == ["applying"]
    trace.close()


def test_a_journal_that_cannot_be_written_keeps_the_write_from_happening(ws_root: Path) -> None:
    store = ProposalStore(Workspace(ws_root))

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    store.add_write_ahead(full)
    proposal = store.propose("src/app.py", APP_OLD, APP_NEW)
    assert store.resolve(proposal.id, "accepted") == "failed"
    assert "could not record the write first (No space left on device (ENOSPC))" in (proposal.note or "")
    assert (ws_root / "src" / "app.py").read_bytes() == APP_OLD


def test_the_write_lock_excludes_other_holders_and_says_who_holds_it(ws_root: Path) -> None:
    with WriteLock(ws_root, "run A"):
        with (
            pytest.raises(TimeoutError, match=r"held for 0.2 s by run A \(pid \d+\)"),
            WriteLock(ws_root, "run B", timeout_s=0.2),
        ):
            pass
        taken = threading.Event()

        def other() -> None:
            with WriteLock(ws_root, "run C"):
                taken.set()

        thread = threading.Thread(target=other)
        thread.start()
        assert not taken.wait(0.2)  # waits for the holder
    thread.join(5)
    assert taken.is_set()


def test_sweep_removes_only_the_temporary_files_of_processes_that_are_gone(ws_root: Path) -> None:
    tmp = ws_root / ".agentls" / "tmp"
    tmp.mkdir(parents=True)
    dead = _dead_pid()
    beside = ws_root / "src" / f".{dead}-abc.agentls-tmp"
    beside.write_text("half")
    (tmp / f"{dead}-abc.where").write_text(str(beside))
    (tmp / f"{dead}-def.tmp").write_text("half")
    (tmp / f"{os.getppid()}-ghi.tmp").write_text("a live writer's")
    sweep(ws_root)
    assert sorted(p.name for p in tmp.iterdir()) == [f"{os.getppid()}-ghi.tmp"]
    assert not beside.exists()


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda root: RunTrace(root, "run-g", "g", ProposalStore(Workspace(root))).close(), id="trace"),
        pytest.param(lambda root: AuditLog.for_workspace(root).record(
            tool="t", input={}, duration_ms=1, output_bytes=0, error=None, decision="allowed"), id="audit"),
        pytest.param(lambda root: cache.save(root / ".agentls" / "index", root, {}), id="index cache"),
        pytest.param(lambda root: MemoryStore.for_workspace(root).add("x"), id="memory"),
        pytest.param(lambda root: WriteLock(root, "x").__enter__().__exit__(), id="write lock"),
    ],
)  # fmt: skip
def test_whoever_makes_agentls_folder_makes_it_ignore_itself(
    tmp_path: Path, make: Callable[[Path], None]
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    make(root)
    assert (root / ".agentls" / ".gitignore").read_text() == "*\n"
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True)
    assert status.stdout == ""
