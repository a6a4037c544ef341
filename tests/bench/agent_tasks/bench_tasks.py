"""The agent benchmark's tasks and sets: one TOML file per task, loaded into `Task`.

Sets: `everyday` (the goals of issue 7, `tasks/`), `spec` (implement-from-spec workspaces
made from HumanEval by make_spec_tasks.py, `spec/`, each with a `split`, dev or holdout)
`paraphrase` (the everyday tasks with other goals: `paraphrases.toml`, `[[paraphrase]]`
tables of `task` and `goal`, written by someone who has not read the agent's code; each
becomes `<task>~p<N>`, the N-th paraphrase of that task, with everything else unchanged)
and `paraphrase-dev` (the same from `paraphrases_dev.toml`: paraphrases to tune on, while
`paraphrase` stays held out; not part of `all`).

A task file holds the goal (as a user would type it), the permission mode, the workspace
files inline (`[files]`, path → text), a reference solution (`[solution]`: files written
over the workspace; a path whose text is `"<delete>"` is removed), the run status it must
end with (`expect_status`, default `completed`), a reference summary (`answer`) and the verifier's checks (`[[check]]`
tables, see bench_verify.py). `materialize()` writes a workspace to a folder and makes it
a git repository with one commit, so the agent's git tools work.
Must not know: agentls, the model, how a run is started.
"""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TASKS_DIR = HERE / "tasks"
SPEC_DIR = HERE / "spec"
PARAPHRASES = HERE / "paraphrases.toml"  # held out: whoever tunes the agent does not read it
PARAPHRASES_DEV = HERE / "paraphrases_dev.toml"  # to tune on
SETS = ("everyday", "spec", "paraphrase", "paraphrase-dev")
ALL_SETS = ("everyday", "spec", "paraphrase")  # `--set all`: the sets results are reported on
SPLITS = ("dev", "holdout")
DELETE = "<delete>"
GITIGNORE = ".agentls/\n__pycache__/\n.pytest_cache/\n"
CATEGORIES = (
    "edit",
    "rename",
    "fix-test",
    "add-test",
    "question",
    "read-only",
    "impossible",
    "implement",
)
MODES = ("read-only", "dev", "ci", "full")


@dataclass(frozen=True)
class Task:
    """One benchmark task (see the module docstring for the file format)."""

    name: str
    goal: str
    mode: str
    category: str
    files: dict[str, str]
    solution: dict[str, str]
    checks: list[dict[str, Any]]
    expect_status: str = "completed"
    answer: str = ""  # a reference summary (questions, read-only goals)
    notes: str = ""
    split: str = ""  # spec tasks: "dev" (tuned on) or "holdout" (reported only)
    source: str = ""  # where the task comes from (spec tasks: the HumanEval id)


def load(path: Path) -> Task:
    """A task from its TOML file; ValueError naming the file when it is malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return parse(data, path.stem, str(path))


def parse(data: dict[str, Any], name: str, path: str) -> Task:
    """A task from its TOML table; ValueError naming `path` when it is malformed."""
    try:
        task = Task(
            name=name,
            goal=str(data["goal"]).strip(),
            mode=str(data.get("mode", "dev")),
            category=str(data["category"]),
            files={k: _text(v) for k, v in data["files"].items()},
            solution={k: _text(v) for k, v in data.get("solution", {}).items()},
            checks=list(data.get("check", [])),
            expect_status=str(data.get("expect_status", "completed")),
            answer=str(data.get("answer", "")),
            notes=str(data.get("notes", "")),
            split=str(data.get("split", "")),
            source=str(data.get("source", "")),
        )
    except KeyError as exc:
        raise ValueError(f"{path}: missing {exc}") from None
    if task.mode not in MODES:
        raise ValueError(f"{path}: mode {task.mode!r} is not one of {MODES}")
    if task.category not in CATEGORIES:
        raise ValueError(f"{path}: category {task.category!r} is not one of {CATEGORIES}")
    if task.split and task.split not in SPLITS:
        raise ValueError(f"{path}: split {task.split!r} is not one of {SPLITS}")
    if not task.checks and task.expect_status == "completed":
        raise ValueError(f"{path}: a task that should complete needs at least one check")
    return task


def baseline(task: Task) -> dict[str, str]:
    """The files of the untouched workspace as `materialize()` writes them."""
    return {**task.files, ".gitignore": GITIGNORE}


def _text(value: Any) -> str:
    """Inline file text: TOML's multi-line strings drop the first newline; keep one at the end."""
    text = str(value)
    return text if text == DELETE or text.endswith("\n") else text + "\n"


def _matching(tasks: list[Task], patterns: list[str] | None) -> list[Task]:
    if not patterns:
        return tasks
    return [t for t in tasks if any(fnmatch.fnmatch(t.name, p) for p in patterns)]


def all_tasks(patterns: list[str] | None = None) -> list[Task]:
    """Every everyday task (`tasks/`), by name; `patterns` (globs or names) keeps a subset."""
    return _matching([load(p) for p in sorted(TASKS_DIR.glob("*.toml"))], patterns)


def spec_tasks(split: str = "all", patterns: list[str] | None = None) -> list[Task]:
    """The implement-from-spec tasks (`spec/`) of one split (`dev`, `holdout`) or all."""
    tasks = [load(p) for p in sorted(SPEC_DIR.glob("*.toml"))]
    return _matching([t for t in tasks if split == "all" or t.split == split], patterns)


def paraphrase_tasks(path: Path = PARAPHRASES, patterns: list[str] | None = None) -> list[Task]:
    """The everyday tasks with the goals of `path`; ValueError when it is missing or wrong."""
    if not path.is_file():
        raise ValueError(
            f"{path} not found: the paraphrase set needs it ([[paraphrase]] tables with "
            'task = "<everyday task>" and goal = "..."), written by someone who has not '
            "read the agent's code — not by whoever tunes the agent"
        )
    try:
        entries = tomllib.loads(path.read_text(encoding="utf-8")).get("paraphrase", [])
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None
    base = {t.name: t for t in all_tasks()}
    seen: dict[str, int] = {}
    out = []
    for i, entry in enumerate(entries, 1):
        where = f"{path}: [[paraphrase]] #{i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("goal"), str):
            raise ValueError(f'{where}: needs task = "..." and goal = "..."')
        task = base.get(str(entry.get("task")))
        if task is None:
            raise ValueError(f"{where}: task {entry.get('task')!r} is not an everyday task")
        goal = entry["goal"].strip()
        if not goal or goal == task.goal:
            raise ValueError(f"{where}: the goal is empty or the task's own goal")
        seen[task.name] = seen.get(task.name, 0) + 1
        out.append(replace(task, name=f"{task.name}~p{seen[task.name]}", goal=goal))
    if not out:
        raise ValueError(f"{path}: no [[paraphrase]] tables")
    return _matching(out, patterns)


def task_set(name: str, patterns: list[str] | None = None, split: str = "all") -> list[Task]:
    """The tasks of one set (SETS), in run order; ValueError for a set that cannot load."""
    if name == "everyday":
        tasks = all_tasks(patterns)
    elif name == "spec":
        tasks = spec_tasks(split, patterns)
    elif name == "paraphrase":
        tasks = paraphrase_tasks(PARAPHRASES, patterns)
    elif name == "paraphrase-dev":
        tasks = paraphrase_tasks(PARAPHRASES_DEV, patterns)
    else:
        raise ValueError(f"unknown set {name!r}; one of {SETS}")
    return interleaved(tasks)


def interleaved(tasks: list[Task]) -> list[Task]:
    """Round-robin over the categories and splits (each in the order given), so that the first N
    runs of a long benchmark are a sample of every kind of goal."""
    keys = list(dict.fromkeys((c, s) for c in CATEGORIES for s in ("", *SPLITS)))
    groups = [[t for t in tasks if (t.category, t.split) == k] for k in keys]
    out: list[Task] = []
    while any(groups):
        for group in groups:
            if group:
                out.append(group.pop(0))
    return out


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write (or with DELETE remove) each file under `root`."""
    for rel, text in files.items():
        target = root / rel
        if text == DELETE:
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def materialize(task: Task, root: Path, *, solved: bool = False, git: bool = True) -> Path:
    """The task's workspace in `root` (created), optionally with the reference solution
    applied after the commit (as the agent's edits would be)."""
    root.mkdir(parents=True, exist_ok=True)
    write_files(root, baseline(task))
    if git:
        env_cfg = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
        for cmd in (
            ["git", "init", "-q", "-b", "main", "."],
            ["git", "add", "-A"],
            ["git", *env_cfg, "commit", "-q", "-m", "initial"],
        ):
            subprocess.run(cmd, cwd=root, check=True, capture_output=True, timeout=30)
    if solved:
        write_files(root, task.solution)
    return root
