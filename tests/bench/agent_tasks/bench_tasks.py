"""The agent benchmark's tasks: one TOML file per task under `tasks/`, loaded into `Task`.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TASKS_DIR = HERE / "tasks"
DELETE = "<delete>"
GITIGNORE = ".agentls/\n__pycache__/\n.pytest_cache/\n"
CATEGORIES = ("edit", "rename", "fix-test", "add-test", "question", "read-only", "impossible")
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


def load(path: Path) -> Task:
    """A task from its TOML file; ValueError naming the file when it is malformed."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    name = path.stem
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
        )
    except KeyError as exc:
        raise ValueError(f"{path}: missing {exc}") from None
    if task.mode not in MODES:
        raise ValueError(f"{path}: mode {task.mode!r} is not one of {MODES}")
    if task.category not in CATEGORIES:
        raise ValueError(f"{path}: category {task.category!r} is not one of {CATEGORIES}")
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


def all_tasks(patterns: list[str] | None = None) -> list[Task]:
    """Every task in `tasks/`, by name; `patterns` (globs or names) keeps a subset."""
    tasks = [load(p) for p in sorted(TASKS_DIR.glob("*.toml"))]
    if not patterns:
        return tasks
    return [t for t in tasks if any(fnmatch.fnmatch(t.name, p) for p in patterns)]


def interleaved(tasks: list[Task]) -> list[Task]:
    """Round-robin over the categories (each in name order), so that the first N runs of a
    long benchmark are a sample of every kind of goal."""
    groups = [[t for t in tasks if t.category == c] for c in CATEGORIES]
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
