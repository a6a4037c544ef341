"""Run the agent benchmark: every task of a set through the real CLI, verified, tabulated.

Each task runs once (or `--repeat` times) through bench_run.py: the real `agentls run`
in a scratch git workspace, timed and verified. Sets (bench_tasks.py): `--set everyday`
(the default), `spec` (`--split dev|holdout|all`), `paraphrase` (held out),
`paraphrase-dev` (paraphrases to tune on), or `all` one after another (everyday, spec,
paraphrase). Results: one JSON file per set and model size (`result_path`) with the machine
facts, totals (bench_measures.py) and per run the status, verdict, the run's own
verification and usage, seconds, steps, tokens, the progress lines and the final `git
diff`; the scratch folders stay in `tests/bench/agent_tasks/.runs/<stamp>/<set>/`
(git-ignored) for reading transcripts.

Usage: `.venv/bin/python tests/bench/agent_tasks/run.py [--model-size 0.5b|1.5b]
[--set everyday|spec|paraphrase|paraphrase-dev|all] [--split dev|holdout|all] [--tasks GLOB,...]
[--threads N] [--timeout S] [--max-steps N] [--repeat N] [--out FILE] [--show FILE]`.
Must not know: agentls internals (it drives the CLI only).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from bench_measures import print_sets, print_table, set_lines, totals
from bench_run import PYTHON, RESULTS, RUNS, export_ref, machine, model_lock, run_task
from bench_tasks import ALL_SETS, SETS, SPLITS, Task, task_set


def result_path(set_name: str, split: str, size: str) -> Path:
    """`agent_tasks_<size>.json` for the everyday set (as before issue 24), else
    `agent_tasks_<set>[_<split>]_<size>.json` (`-` in the set's name as `_`)."""
    if set_name == "everyday":
        return RESULTS / f"agent_tasks_{size}.json"
    part = f"_{split}" if set_name == "spec" and split != "all" else ""
    return RESULTS / f"agent_tasks_{set_name.replace('-', '_')}{part}_{size}.json"


def show(path: Path) -> None:
    """The tables of a result file; measures added since it was written are computed from
    its runs (its own totals win where they exist)."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    total = {**totals(saved["runs"]), **saved["totals"]}
    print_table(saved["runs"], total)
    print()
    print_sets(set_lines(str(saved.get("set") or "everyday"), total))


def run_set(
    name: str,
    tasks: list[Task],
    out: Path,
    args: argparse.Namespace,
    env: dict[str, str],
    facts: dict[str, Any],
    folder: Path,
) -> dict[str, Any]:
    """Every run of one set, the result file rewritten after each; the set's totals."""
    rows: list[dict[str, Any]] = []
    planned = len(tasks) * args.repeat
    total = totals(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    for rep in range(args.repeat):
        for task in tasks:
            run_dir = folder / (task.name if args.repeat == 1 else f"{task.name}.{rep}")
            run_dir.mkdir(parents=True, exist_ok=True)
            with model_lock():
                row = run_task(task, run_dir, args, env, name)
            rows.append(row)
            print(
                f"[{name} {len(rows)}/{planned}] {task.name}: {row['status']} "
                f"{'verified' if row['verified'] else 'NOT verified'} {row['seconds']:.1f}s "
                f"steps={row['steps']} first_step={row['first_step_s']}",
                file=sys.stderr,
                flush=True,
            )
            if row["verified"] and not args.keep:
                shutil.rmtree(run_dir / "ws", ignore_errors=True)
            total = totals(rows)
            payload = {
                "set": name,
                "split": args.split if name == "spec" else None,
                "machine": {**facts, "loadavg_end": [round(x, 2) for x in os.getloadavg()]},
                "args": vars(args),
                "complete": len(rows) == planned,
                "totals": total,
                "runs": rows,
            }
            # written after every run, so a long run can be read (and stopped) midway
            out.write_text(
                json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
    print_table(rows, total)
    print(f"\nresults: {out}\ntranscripts: {folder}\n")
    return total


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model-size", choices=("0.5b", "1.5b"), default="0.5b")
    p.add_argument("--model", default="local", help="agentls --model spec (default local)")
    p.add_argument(
        "--set",
        choices=(*SETS, "all"),
        default="everyday",
        help="everyday (tasks/, the default), spec (spec/, implement from a description), "
        "paraphrase (paraphrases.toml: everyday tasks, other goals; held out), paraphrase-dev "
        "(paraphrases_dev.toml: the same, to tune on) or all (everyday, spec, paraphrase), one "
        "after another",
    )
    p.add_argument(
        "--split",
        choices=(*SPLITS, "all"),
        default="all",
        help="the spec set's split: dev (tune on it), holdout (report only) or all (default)",
    )
    p.add_argument("--tasks", default="", help="comma-separated task names or globs (default: all)")
    p.add_argument(
        "--threads", type=int, default=None, help="AGENTLS_LOCAL_THREADS (default: auto)"
    )
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default 300)")
    p.add_argument("--max-steps", type=int, default=None, help="passed to agentls run --max-steps")
    p.add_argument(
        "--ref",
        default=None,
        help="run agentls as committed at this git ref (exported with git archive) instead of "
        "the work tree",
    )
    p.add_argument("--repeat", type=int, default=1, help="runs per task (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="only 1 (sequential): one model at a time")
    p.add_argument(
        "--out",
        default=None,
        help="result JSON of a single set (default: tests/bench/results/agent_tasks_<size>.json "
        "for everyday, agent_tasks_<set>[_<split>]_<size>.json for the others)",
    )
    p.add_argument("--keep", action="store_true", help="keep .runs/<stamp>/ even for verified runs")
    p.add_argument(
        "--show", default=None, metavar="FILE", help="print the tables of a result file and exit"
    )
    return p


def main() -> int:
    cli = parser()
    args = cli.parse_args()
    if args.show:
        show(Path(args.show))
        return 0
    if args.jobs != 1:
        cli.error("--jobs: only 1 is supported (2 shared cores; runs would distort each other)")
    names = list(ALL_SETS) if args.set == "all" else [args.set]
    if args.split != "all" and "spec" not in names:
        cli.error("--split chooses within the spec set: give it with --set spec or all")
    if args.out and len(names) > 1:
        cli.error("--out names one result file: give it with a single --set")
    patterns = [p.strip() for p in args.tasks.split(",") if p.strip()] or None
    sets: dict[str, list[Task]] = {}
    for name in names:  # every set loads before the first run: a missing file stops it now
        try:
            sets[name] = task_set(name, patterns, args.split)
        except ValueError as exc:
            cli.error(f"--set {name}: {exc}")
        if not sets[name] and len(names) == 1:
            cli.error(f"no task of the {name} set matches {args.tasks!r}")
    if not any(sets.values()):
        cli.error(f"no task of any set matches {args.tasks!r}")
    if not PYTHON.exists():
        cli.error(
            f"{PYTHON} not found: install agentls into .venv first (pip install -e '.[local]')"
        )
    env = {**os.environ, "AGENTLS_LOCAL_MODEL": args.model_size}
    if args.threads:
        env["AGENTLS_LOCAL_THREADS"] = str(args.threads)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{args.model_size}"
    source = "working tree"
    if args.ref:
        source = export_ref(args.ref, RUNS / stamp / "source")
        env["PYTHONPATH"] = str(RUNS / stamp / "source" / "server")
    facts = {**machine(env), "agentls_source": source}
    lines = []
    for name, tasks in sets.items():
        if not tasks:
            continue
        out = Path(args.out) if args.out else result_path(name, args.split, args.model_size)
        total = run_set(name, tasks, out, args, env, facts, RUNS / stamp / name)
        lines += set_lines(name, total)
    print_sets(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
