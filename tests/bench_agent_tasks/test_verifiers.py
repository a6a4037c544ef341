"""The agent benchmark's verifiers (tests/bench/agent_tasks), checked without a model.

For every everyday task: the reference solution (with its reference answer as the summary)
passes the verifier, so the task is solvable; the untouched workspace fails it (questions
fail without their answer), so the verifier can fail — except read-only and impossible
goals, where the untouched workspace is the right result; an impossible goal reported
`completed` is a failure (a false completion), and so is any edit to a read-only workspace.
For every spec task (implement from a description, made from HumanEval) the reference
passes; for a sample (every fifth task, to keep the suite fast: each check is a pytest
process) the stub fails, and a solution that knows only the visible examples passes the
visible tests and still fails. `make_spec_tasks.py --check` checks all three for every task.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

AGENT_TASKS = Path(__file__).resolve().parents[1] / "bench" / "agent_tasks"
sys.path.insert(0, str(AGENT_TASKS))

from bench_tasks import CATEGORIES, Task, all_tasks, materialize, spec_tasks  # noqa: E402
from bench_verify import run_pytest, verify  # noqa: E402
from make_spec_tasks import overfit, stub_path  # noqa: E402

TASKS = all_tasks()
SPEC = spec_tasks()
UNCHANGED = ("read-only", "impossible", "question")
# samples (make_spec_tasks.py --check covers every task): every fifth spec task, and every
# fifth of those for which a visible-only solution can be made
STUB_SAMPLE = SPEC[::5]
OVERFIT_SAMPLE = [t for t in SPEC if overfit(t) is not None][::5]


def test_the_suite_covers_every_kind() -> None:
    assert len(TASKS) >= 24
    assert {t.category for t in TASKS + SPEC} == set(CATEGORIES)
    assert {t.category for t in TASKS} == set(CATEGORIES) - {"implement"}
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


def test_the_spec_set_has_its_shape() -> None:
    assert len(SPEC) == 50
    assert sorted(t.split for t in SPEC).count("dev") == 30
    assert sum(t.split == "holdout" for t in SPEC) == 20
    assert len({t.source for t in SPEC}) == 50
    for task in SPEC:
        stub = stub_path(task)
        visible = stub.removesuffix(".py") + "_test.py"
        assert (task.category, task.mode) == ("implement", "full")
        assert set(task.files) == {".docs/instructions.md", stub, visible}
        assert task.files[".docs/instructions.md"].startswith("# ")
        assert "pass\n" in task.files[stub] and '"""' not in task.files[stub].split("def ")[-1]
        kinds = {c["type"]: c for c in task.checks}
        assert kinds["only_changed"]["paths"] == [stub]
        assert kinds["unchanged"]["paths"] == [visible]
        assert list(kinds["pytest"]["hidden"]) == ["test_hidden_bench.py"]
        assert stub.removesuffix(".py") in task.goal
    assert sum("instructions.md" in t.goal for t in SPEC) not in (0, len(SPEC))


@pytest.mark.parametrize("task", SPEC, ids=lambda t: t.name)
def test_spec_reference_passes(task: Task, tmp_path: Path) -> None:
    solved = materialize(task, tmp_path / "ref", solved=True, git=False)
    verdict = verify(task, solved, "completed", "")
    assert verdict.ok, verdict.to_dict()


@pytest.mark.parametrize("task", STUB_SAMPLE, ids=lambda t: t.name)
def test_spec_stub_fails(task: Task, tmp_path: Path) -> None:
    stub = verify(task, materialize(task, tmp_path / "stub", git=False), "completed", "")
    assert not stub.ok
    assert [c.check for c in stub.checks if not c.ok] == ["pytest"]


@pytest.mark.parametrize("task", OVERFIT_SAMPLE, ids=lambda t: t.name)
def test_a_solution_that_knows_only_the_visible_examples_fails(task: Task, tmp_path: Path) -> None:
    root = materialize(task, tmp_path / "ws", git=False)
    wrong = overfit(task)
    assert wrong is not None
    (root / stub_path(task)).write_text(wrong, encoding="utf-8")
    assert run_pytest(root, {"type": "pytest"}).ok  # the visible tests alone pass
    verdict = verify(task, root, "completed", "")
    assert not verdict.ok
    assert [c.check for c in verdict.checks if not c.ok] == ["pytest"]


def test_the_samples_cover_both_splits() -> None:
    assert len(STUB_SAMPLE) == 10 and len(OVERFIT_SAMPLE) >= 5
    assert {t.split for t in STUB_SAMPLE} == {t.split for t in OVERFIT_SAMPLE} == {"dev", "holdout"}
