"""The agent benchmark's measures (tests/bench/agent_tasks/bench_measures.py) and the runner's
command line where no model runs: a run's own verification and usage, the totals per set and
split, the tables of an old result file, a missing paraphrase file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

AGENT_TASKS = Path(__file__).resolve().parents[1] / "bench" / "agent_tasks"
sys.path.insert(0, str(AGENT_TASKS))

import bench_tasks  # noqa: E402
import run  # noqa: E402
from bench_measures import p90, reported, totals  # noqa: E402

OLD_RESULT = AGENT_TASKS.parents[0] / "results" / "agent_tasks_1.5b_4728005.json"
TURNS = [
    {"seconds": 10.0, "prompt_tokens": 900, "completion_tokens": 30},
    {"seconds": 4.5, "prompt_tokens": 1000, "completion_tokens": 20},
]


def test_the_runs_own_verification_and_usage_are_read() -> None:
    result = {
        "status": "completed",
        "verification": {"verified": True, "checks": [{"kind": "tests", "passed": True}]},
        "usage": {"promptTokens": 2500, "completionTokens": 80, "modelSeconds": 12.25},
    }
    got = reported(result, TURNS)
    assert got["agent_verified"] is True
    assert got["verification"]["checks"][0]["kind"] == "tests"
    assert (got["prompt_tokens"], got["completion_tokens"], got["tokens_from"]) == (
        2500,
        80,
        "usage",
    )
    assert (got["model_seconds"], got["usage_model_seconds"]) == (14.5, 12.25)


def test_without_them_the_tokens_come_from_the_recorded_turns() -> None:
    got = reported({"status": "completed", "summary": "done"}, TURNS)
    assert (got["verification"], got["agent_verified"], got["usage"]) == (None, None, None)
    assert (got["prompt_tokens"], got["completion_tokens"], got["tokens_from"]) == (
        1900,
        50,
        "turns",
    )
    assert got["model_seconds"] == 14.5


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([5.0], 5.0),
        ([float(i) for i in range(1, 11)], 9.0),
        ([float(i) for i in range(20, 0, -1)], 18.0),
        ([], None),
    ],
)
def test_p90_is_the_nearest_rank(values: list[float], expected: float | None) -> None:
    assert p90(values) == expected


def _row(status: str, verified: bool, own: Any, seconds: float, split: str = "") -> dict[str, Any]:
    row = {
        "task": "t",
        "category": "implement",
        "split": split,
        "status": status,
        "expect_status": "completed",
        "verified": verified,
        "false_completion": status == "completed" and not verified,
        "unparseable": [],
        "seconds": seconds,
        "first_step_s": 1.0,
        "steps": 2,
        "checks": [],
        **reported({} if own == "absent" else {"verification": {"verified": own}}, TURNS),
        "turns": TURNS,
    }
    return row


def test_totals_count_false_and_unverified_completions_per_split() -> None:
    rows = [
        _row("completed", True, True, 10.0, "dev"),
        _row("completed", False, True, 20.0, "dev"),  # a false completion the run called verified
        _row("completed", True, None, 30.0, "holdout"),  # completed, verified: null
        _row("completed", True, "absent", 40.0, "holdout"),  # no verification reported
        _row("failed", False, False, 50.0, "holdout"),
    ]
    total = totals(rows)
    assert (total["runs"], total["verified"], total["false_completions"]) == (5, 3, 1)
    assert total["completed_unverified"] == 2
    assert total["completed_verification_missing"] == 1
    assert (total["median_seconds"], total["p90_seconds"]) == (30.0, 50.0)
    assert total["model_seconds"] == 72.5
    assert (total["prompt_tokens"], total["completion_tokens"]) == (9500, 250)
    assert total["by_split"]["dev"]["verified"] == 1
    assert total["by_split"]["dev"]["false_completions"] == 1
    assert total["by_split"]["holdout"]["completed_unverified"] == 2
    assert total["by_split"]["holdout"]["p90_seconds"] == 50.0


def test_an_old_result_file_still_shows(capsys: pytest.CaptureFixture[str]) -> None:
    saved = json.loads(OLD_RESULT.read_text(encoding="utf-8"))
    assert "verification" not in saved["runs"][0]  # written before issue 24
    run.show(OLD_RESULT)
    out = capsys.readouterr().out
    assert "add_function" in out
    assert "p90_seconds" in out and "completed_unverified" in out
    completed = sum(r["status"] == "completed" for r in saved["runs"])
    summary = next(line for line in out.splitlines() if line.startswith("everyday "))
    assert summary.split()[1:5] == [
        str(len(saved["runs"])),
        f"{saved['totals']['verified']}/{len(saved['runs'])}",
        str(saved["totals"]["false_completions"]),
        str(completed),  # no run reported its verification: every completion is unknown
    ]


def test_the_runner_stops_at_once_without_the_paraphrase_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_tasks, "PARAPHRASES", tmp_path / "paraphrases.toml")
    monkeypatch.setattr(sys, "argv", ["run.py", "--set", "all"])
    with pytest.raises(SystemExit) as stop:
        run.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--set paraphrase:" in err and "paraphrases.toml not found" in err
