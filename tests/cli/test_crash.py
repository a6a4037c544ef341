"""kill -9 of `agentls run --approve auto` at every named point of an applied write (the
process group, timed from the write's own events): the file is whole (old or new, never
torn), nothing is left in the user's tree (git status shows at most the edit), every
trace is valid JSON that records the write before it lands, and undo takes back every
write that landed — from the library and from `agentls undo`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agentls.tools.proposals import ProposalStore
from agentls.tools.undo import undo_run
from agentls.workspace import Workspace
from tests.cli.durable_harness import (
    AGENTLS,
    Events,
    edit_script,
    git,
    git_workspace,
    kill_group,
    start_run,
    traces,
)

BIG = "".join(f"line {i} {'x' * 60}\n" for i in range(20_000))  # 1.3 MB
OLD_LINE = f"line 10000 {'x' * 60}\n"
NEW_LINE = "line ten thousand\n"
NEW = BIG.replace(OLD_LINE, NEW_LINE)
# (point, does the new content land before it): the points of an apply, in order
POINTS = [("checked", False), ("journaled", False), ("temp-written", False), ("replaced", True), ("resolved", True)]
KILLS_PER_POINT = 4


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Events]:
    tmp = tmp_path_factory.mktemp("crash")
    root = git_workspace(tmp / "ws", {"big.txt": BIG, "README": "hello\n"})
    script = edit_script(tmp, "edit", "big.txt", OLD_LINE, NEW_LINE)
    events = Events(tmp / "events")
    yield root, script, events
    events.close()


def _run_id(before: set[str], root: Path) -> str:
    new = set(traces(root)) - before
    assert len(new) == 1, new
    return new.pop()


@pytest.mark.parametrize(("point", "lands"), [p for p in POINTS for _ in range(KILLS_PER_POINT)])
def test_a_kill_at_any_point_of_an_apply_loses_nothing(
    setting: tuple[Path, Path, Events], point: str, lands: bool
) -> None:
    root, script, events = setting
    before = set(traces(root))
    proc = start_run(root, script, {"AGENTLS_TEST_HOOK_FIFO": str(events.path), "AGENTLS_TEST_HOOK_STOP": point})
    events.wait_for(point, proc.pid)
    kill_group(proc)

    text = (root / "big.txt").read_text("utf-8")
    assert text == (NEW if lands else BIG)  # whole: the old file or the new, never a mix
    assert git(root, "status", "--porcelain") == (" M big.txt\n" if lands else "")  # no stray file
    run_id = _run_id(before, root)
    trace = traces(root)[run_id]  # valid JSON
    assert trace["status"] == "running"  # it never ended
    if point != "checked":  # the write was journaled before it could land
        (record,) = trace["proposals"]
        assert record["status"] == "applying"
        assert record["applying"][0]["path"] == "big.txt"
        assert record["applying"][0]["after"] == {"text": NEW}

    store = ProposalStore(Workspace(root))
    plan = undo_run(store, run_id)
    assert plan.to_dict()["files"] == (["big.txt"] if lands else [])
    assert plan.skipped == []
    if plan.proposal is not None:
        assert store.resolve(plan.proposal.id, "accepted") == "applied"
    assert (root / "big.txt").read_text("utf-8") == BIG
    assert git(root, "status", "--porcelain") == ""


def test_agentls_undo_takes_back_a_write_the_kill_left_unrecorded(setting: tuple[Path, Path, Events]) -> None:
    """Killed after the rename, before the outcome reached the trace: the journal is enough."""
    root, script, events = setting
    before = set(traces(root))
    proc = start_run(root, script, {"AGENTLS_TEST_HOOK_FIFO": str(events.path), "AGENTLS_TEST_HOOK_STOP": "resolved"})
    events.wait_for("resolved", proc.pid)
    kill_group(proc)
    run_id = _run_id(before, root)
    assert (root / "big.txt").read_text("utf-8") == NEW
    undo = subprocess.run([*AGENTLS, "undo", run_id, "--workspace", str(root), "--approve", "auto"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)  # fmt: skip
    assert undo.returncode == 0, undo.stderr
    assert json.loads(undo.stdout)["status"] == "applied"
    assert (root / "big.txt").read_text("utf-8") == BIG
    assert git(root, "status", "--porcelain") == ""


def test_the_next_write_sweeps_what_the_killed_writers_left(setting: tuple[Path, Path, Events]) -> None:
    """After the kills, a run that completes leaves .agentls/tmp empty (the temporary
    files of dead processes are removed under the write lock) and the tree clean."""
    root, script, _ = setting
    proc = start_run(root, script, {})
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert json.loads(out)["status"] == "completed"
    assert (root / "big.txt").read_text("utf-8") == NEW
    assert list((root / ".agentls" / "tmp").iterdir()) == []
    assert git(root, "status", "--porcelain") == " M big.txt\n"
    assert (root / ".agentls" / ".gitignore").read_text("utf-8") == "*\n"
