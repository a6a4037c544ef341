"""The agent benchmark's task sets (tests/bench/agent_tasks/bench_tasks.py), without a model:
everyday, spec by split, and paraphrase variants read from a `[[paraphrase]]` file (here a
file this test writes; the real, held-out one is written by someone else and not read here),
and the development paraphrases (`paraphrases_dev.toml`, read: they are meant to be).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

AGENT_TASKS = Path(__file__).resolve().parents[1] / "bench" / "agent_tasks"
sys.path.insert(0, str(AGENT_TASKS))

from bench_tasks import (  # noqa: E402
    ALL_SETS,
    PARAPHRASES_DEV,
    all_tasks,
    interleaved,
    paraphrase_tasks,
    spec_tasks,
    task_set,
)
from run import result_path  # noqa: E402


def test_the_everyday_set_is_the_default_thirty() -> None:
    tasks = task_set("everyday")
    assert len(tasks) == len(all_tasks()) == 30
    assert {t.name for t in tasks} == {t.name for t in all_tasks()}


@pytest.mark.parametrize(("split", "count"), [("dev", 30), ("holdout", 20), ("all", 50)])
def test_the_spec_set_by_split(split: str, count: int) -> None:
    tasks = task_set("spec", split=split)
    assert len(tasks) == count
    assert all(t.category == "implement" for t in tasks)
    if split != "all":
        assert {t.split for t in tasks} == {split}


def test_spec_runs_alternate_between_the_splits() -> None:
    first = [t.split for t in task_set("spec")[:4]]
    assert first == ["dev", "holdout", "dev", "holdout"]
    assert task_set("spec", ["he0*"], "dev") == interleaved(spec_tasks("dev", ["he0*"]))


def test_an_unknown_set_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown set"):
        task_set("exercism")


def _write(path: Path, entries: list[tuple[str, str]]) -> Path:
    text = "".join(f'[[paraphrase]]\ntask = "{t}"\ngoal = "{g}"\n\n' for t, g in entries)
    path.write_text(text, encoding="utf-8")
    return path


def test_paraphrases_become_variants_of_their_task(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "p.toml",
        [
            ("fix_bug", "loader test goal one"),
            ("rename_class", "loader test goal two"),
            ("fix_bug", "loader test goal three"),
        ],
    )
    variants = paraphrase_tasks(path)
    assert [v.name for v in variants] == ["fix_bug~p1", "rename_class~p1", "fix_bug~p2"]
    base = {t.name: t for t in all_tasks()}
    for variant in variants:
        original = base[variant.name.split("~")[0]]
        assert variant.goal != original.goal
        assert (variant.files, variant.solution, variant.checks) == (
            original.files,
            original.solution,
            original.checks,
        )
        assert (variant.mode, variant.category, variant.expect_status, variant.answer) == (
            original.mode,
            original.category,
            original.expect_status,
            original.answer,
        )
    assert [v.name for v in paraphrase_tasks(path, ["fix_bug*"])] == ["fix_bug~p1", "fix_bug~p2"]


def test_a_missing_paraphrase_file_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not found: the paraphrase set needs it"):
        paraphrase_tasks(tmp_path / "paraphrases.toml")


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([("no_such_task", "loader test goal")], "is not an everyday task"),
        ([("fix_bug", "")], "empty or the task's own goal"),
        ([], "no \\[\\[paraphrase\\]\\] tables"),
    ],
)
def test_a_wrong_paraphrase_file_is_refused(
    tmp_path: Path, entries: list[tuple[str, str]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        paraphrase_tasks(_write(tmp_path / "p.toml", entries))


def test_a_paraphrase_equal_to_the_goal_is_refused(tmp_path: Path) -> None:
    original = next(t for t in all_tasks() if t.name == "fix_bug").goal
    path = tmp_path / "p.toml"
    path.write_text(f"[[paraphrase]]\ntask = 'fix_bug'\ngoal = '''{original}'''\n")
    with pytest.raises(ValueError, match="the task's own goal"):
        paraphrase_tasks(path)


def test_each_set_has_its_result_file() -> None:
    assert result_path("everyday", "all", "1.5b").name == "agent_tasks_1.5b.json"
    assert result_path("spec", "all", "1.5b").name == "agent_tasks_spec_1.5b.json"
    assert result_path("spec", "dev", "0.5b").name == "agent_tasks_spec_dev_0.5b.json"
    assert result_path("paraphrase", "all", "1.5b").name == "agent_tasks_paraphrase_1.5b.json"
    assert (
        result_path("paraphrase-dev", "all", "0.5b").name == "agent_tasks_paraphrase_dev_0.5b.json"
    )


#: Dev wordings per task: three, eleven more of every task (a third, fourth and fifth
#: helper's), and twelve more of three kinds of job (a second helper's).
PER_TASK = 14
MORE_WORDINGS = {"docstring_module": 26, "impossible_missing_function": 25, "rename_class": 26}  # one wording twice


def test_the_dev_paraphrases_cover_every_everyday_task_three_times() -> None:
    variants = paraphrase_tasks(PARAPHRASES_DEV)  # ValueError if a task is not an everyday one
    base = {t.name: t for t in all_tasks()}
    by_task: dict[str, list[str]] = {}
    for variant in variants:
        name, _, number = variant.name.partition("~p")
        assert name in base and number.isdigit()
        by_task.setdefault(name, []).append(variant.goal)
    assert set(by_task) == set(base)
    assert {name: len(goals) for name, goals in by_task.items() if len(goals) != PER_TASK} == MORE_WORDINGS
    goals = [v.goal for v in variants]
    assert len(set(goals)) == len(goals)
    assert not set(goals) & {t.goal for t in base.values()}


def test_the_dev_paraphrase_set_runs_like_the_paraphrase_set() -> None:
    tasks = task_set("paraphrase-dev")
    assert tasks == interleaved(paraphrase_tasks(PARAPHRASES_DEV))
    assert [t.name for t in task_set("paraphrase-dev", ["fix_bug*"])] == [
        "fix_bug~p1",
        "fix_bug~p2",
        "fix_bug~p3",
        "fix_bug~p4",
        "fix_bug~p5",
        "fix_bug~p6",
        "fix_bug~p7",
        "fix_bug~p8",
        "fix_bug~p9",
        "fix_bug~p10",
        "fix_bug~p11",
        "fix_bug~p12",
        "fix_bug~p13",
        "fix_bug~p14",
    ]
    assert "paraphrase-dev" not in ALL_SETS  # `--set all` reports the held-out set, not this
