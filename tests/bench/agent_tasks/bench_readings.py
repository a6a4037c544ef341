"""How each benchmark goal is read (agent/goal/), without a model: a paraphrase should be
read as its task's own goal is — the same kind of job, files, values, rename, protected
files, new and missing files. A difference is where a run is likely to go wrong before the
model says a word, so this is the quick loop to tune the goal reading on (seconds, where a
model run of the set takes most of an hour).

    .venv/bin/python tests/bench/agent_tasks/bench_readings.py                  # paraphrase-dev
    .venv/bin/python tests/bench/agent_tasks/bench_readings.py --set everyday   # each goal's reading
    .venv/bin/python tests/bench/agent_tasks/bench_readings.py --json out.json  # every reading

Each workspace is written to a scratch folder and read through the run's own
`WorkspaceFacts` (the code index and the walk of its files), as `agentls run` reads it.
The held-out `paraphrase` set is refused: reading it is tuning on it.
Must not know: the model, how a run is started.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_tasks import Task, all_tasks, materialize, task_set  # noqa: E402

from agentls.agent.goal import read_goal  # noqa: E402
from agentls.agent.goal.facts import WorkspaceFacts  # noqa: E402
from agentls.tools.base import ToolContext  # noqa: E402
from agentls.tools.permissions import PermissionSet  # noqa: E402
from agentls.workspace import Workspace  # noqa: E402

#: What a paraphrase must share with its task's goal to be read the same.
COMPARED = ("kind", "files", "new_files", "missing_files", "presumed", "values", "rename", "protected", "tests_matter", "module_doc", "also_tests")
SHOWN = (*COMPARED, "describes", "conditional", "specs", "tests")


def reading_of(task: Task, goal: str, root: Path) -> dict[str, Any]:
    ctx = ToolContext(workspace=Workspace(root), permissions=PermissionSet.for_mode(task.mode))
    reading = read_goal(goal, WorkspaceFacts(ctx), may_write=task.mode != "read-only")
    out = {key: getattr(reading, key) for key in SHOWN}
    out["files"] = sorted(out["files"])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="paraphrase-dev", choices=("everyday", "spec", "paraphrase-dev"))
    parser.add_argument("--tasks", help="comma-separated names or globs")
    parser.add_argument("--json", type=Path, help="write every reading here")
    args = parser.parse_args(argv)
    tasks = task_set(args.set, args.tasks.split(",") if args.tasks else None)
    originals = {t.name: t for t in all_tasks()}
    readings: dict[str, Any] = {}
    differ = 0
    with tempfile.TemporaryDirectory(prefix="agentls-readings-") as scratch:
        for i, task in enumerate(tasks):
            root = materialize(task, Path(scratch) / str(i), git=False)
            mine = reading_of(task, task.goal, root)
            readings[task.name] = {"goal": task.goal, **mine}
            base = originals.get(task.name.split("~")[0])
            if "~" not in task.name or base is None:
                continue
            theirs = reading_of(task, base.goal, root)
            diff = {k: [theirs[k], mine[k]] for k in COMPARED if theirs[k] != mine[k]}
            if diff:
                differ += 1
                print(f"{task.name}: {task.goal}\n    task's goal → this goal: {diff}")
    if args.json:
        args.json.write_text(json.dumps(readings, indent=1, default=list) + "\n", encoding="utf-8")
    variants = sum("~" in t.name for t in tasks)
    if variants:
        print(f"{differ} of {variants} goals read otherwise than their task's goal")
    else:
        print(f"{len(tasks)} goals read")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
