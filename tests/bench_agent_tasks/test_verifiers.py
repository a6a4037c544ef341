"""The agent benchmark's verifiers (tests/bench/agent_tasks), checked without a model.

For every task: the reference solution (with its reference answer as the summary) passes
the verifier, so the task is solvable; the untouched workspace fails it (questions fail
without their answer), so the verifier can fail — except read-only and impossible goals,
where the untouched workspace is the right result; an impossible goal reported
`completed` is a failure (a false completion), and so is any edit to a read-only workspace.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

AGENT_TASKS = Path(__file__).resolve().parents[1] / "bench" / "agent_tasks"
sys.path.insert(0, str(AGENT_TASKS))

from bench_tasks import CATEGORIES, Task, all_tasks, materialize  # noqa: E402
from bench_verify import verify  # noqa: E402

TASKS = all_tasks()
UNCHANGED = ("read-only", "impossible", "question")


def test_the_suite_covers_every_kind() -> None:
    assert len(TASKS) >= 24
    assert {t.category for t in TASKS} == set(CATEGORIES)
    assert len({t.goal for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_reference_solution_passes(task: Task, tmp_path: Path) -> None:
    root = materialize(task, tmp_path / "ws", solved=True, git=False)
    verdict = verify(task, root, task.expect_status, task.answer)
    assert verdict.ok, verdict.to_dict()


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.name)
def test_untouched_workspace_fails_unless_nothing_was_to_change(task: Task, tmp_path: Path) -> None:
    root = materialize(task, tmp_path / "ws", git=False)
    verdict = verify(task, root, task.expect_status, "")
    summary_checked = any(c["type"] == "summary" for c in task.checks)
    if task.category in UNCHANGED and not summary_checked:
        assert verdict.ok, verdict.to_dict()
    else:
        assert not verdict.ok


@pytest.mark.parametrize(
    "task", [t for t in TASKS if t.category in UNCHANGED], ids=lambda t: t.name
)
def test_an_edit_fails_goals_that_change_nothing(task: Task, tmp_path: Path) -> None:
    root = materialize(task, tmp_path / "ws", git=False)
    first = sorted(task.files)[0]
    (root / first).write_text(task.files[first] + "# edited\n", encoding="utf-8")
    assert not verify(task, root, task.expect_status, task.answer).ok
    (root / first).write_text(task.files[first], encoding="utf-8")
    (root / "new_file.py").write_text("x = 1\n", encoding="utf-8")
    assert not verify(task, root, task.expect_status, task.answer).ok


@pytest.mark.parametrize(
    "task", [t for t in TASKS if t.expect_status != "completed"], ids=lambda t: t.name
)
def test_impossible_goals_reported_completed_fail(task: Task, tmp_path: Path) -> None:
    root = materialize(task, tmp_path / "ws", git=False)
    verdict = verify(task, root, "completed", "Done.")
    assert not verdict.ok and not verdict.status_ok


def test_a_file_that_no_longer_parses_fails(tmp_path: Path) -> None:
    task = next(t for t in TASKS if t.name == "docstring_function")
    root = materialize(task, tmp_path / "ws", solved=True, git=False)
    (root / "main.py").write_text("def broken(:\n", encoding="utf-8")
    verdict = verify(task, root, "completed", "")
    assert not verdict.ok and verdict.unparseable == ["main.py"]


def test_materialize_commits_the_workspace(tmp_path: Path) -> None:
    task = TASKS[0]
    root = materialize(task, tmp_path / "ws")
    assert (root / ".git").is_dir()
    assert verify(task, root, "completed", task.answer).checks[0].ok  # everything parses
