"""Two `agentls run --approve auto` processes editing the same line of one file at once,
many times: both hold their proposal before either writes (each stops at `deciding` until
the test opens both gates together), and the write is slowed between the stale check and
the write (`AGENTLS_TEST_HOOK_SLEEP`), so without one lock over check and write both
would be told "applied". Exactly one is applied; the other is stale and names the run
that won."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.durable_harness import Events, edit_script, git, git_workspace, start_run, traces

TEXT = "".join(f"setting_{i} = {i}\n" for i in range(50))
OLD = "setting_25 = 25\n"
ROUNDS = 4


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_runs_racing_on_one_line_one_applies_and_the_other_is_stale(
    tmp_path: Path, round_: int
) -> None:
    root = git_workspace(tmp_path / "ws", {"config.py": TEXT})
    events = Events(tmp_path / "events")
    racers = {}
    for name in ("a", "b"):
        gate = tmp_path / f"gate-{name}"
        os.mkfifo(gate)
        script = edit_script(tmp_path, name, "config.py", OLD, f"setting_25 = '{name}'\n")
        env = {
            "AGENTLS_TEST_HOOK_FIFO": str(events.path),
            "AGENTLS_TEST_HOOK_GATE": f"deciding:{gate}",
            "AGENTLS_TEST_HOOK_SLEEP": "checked:0.3",
        }
        racers[name] = (start_run(root, script, env, goal=f"Set setting_25 to {name}"), gate)
    try:
        for proc, _ in racers.values():
            events.wait_for("deciding", proc.pid)
        for _, gate in racers.values():  # both proposals exist and neither holds the lock
            with open(gate, "wb") as fh:
                fh.write(b"go\n")
        results = {}
        for name, (proc, _) in racers.items():
            out, err = proc.communicate(timeout=120)
            assert proc.returncode in (0, 1), err  # the loser's run fails: it changed nothing
            results[name] = json.loads(out)
    finally:
        events.close()
        for proc, _ in racers.values():
            if proc.poll() is None:
                proc.kill()

    runs = traces(root)
    outcome = {name: runs[r["runId"]]["proposals"][0] for name, r in results.items()}
    statuses = sorted(p["status"] for p in outcome.values())
    assert statuses == ["applied", "stale"], outcome
    winner = next(n for n, p in outcome.items() if p["status"] == "applied")
    loser = "b" if winner == "a" else "a"
    assert f"run {results[winner]['runId']}" in outcome[loser]["note"]
    assert "wrote it meanwhile; nothing was written" in outcome[loser]["note"]
    assert (root / "config.py").read_text("utf-8") == TEXT.replace(OLD, f"setting_25 = '{winner}'\n")
    assert git(root, "status", "--porcelain") == " M config.py\n"
