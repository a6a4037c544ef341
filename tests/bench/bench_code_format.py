"""How well an embedded model writes a whole file: as a JSON string argument, or in a
fenced block after the JSON call (issue 24, item 2; llm/local/fenced.py).

For each implement-from-spec task (tests/bench/agent_tasks/spec/, the `dev` split by
default) the model gets one acting turn: the goal, the task's description, its stub and
its visible tests, and `write_file` as its only tool, through the real LocalModel (its
grammar, its prompt), once with `code_format = "json"` and once with `"fenced"`. What it
writes is put in a copy of the workspace and judged by the task's own verifier (the hidden
tests). No agent loop, no retries: the format alone decides.

Usage: `.venv/bin/python tests/bench/bench_code_format.py [--model-size 1.5b|0.5b]
[--split dev|holdout|all] [--tasks GLOB,…] [--out FILE]`. Results: per format, tasks
passed, replies that parsed into a call, seconds and completion tokens per turn;
`tests/bench/results/code_format_<size>.json`. Run it on a quiet machine (the load is
recorded).
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "agent_tasks"))

import bench_tasks  # noqa: E402
from bench_verify import verify  # noqa: E402

from agentls.agent.policy import hold  # noqa: E402
from agentls.llm.local import LocalModel, model_files  # noqa: E402
from agentls.tools.registry import default_registry  # noqa: E402

SYSTEM = (
    "You are agentls, an autonomous software engineer working in a code workspace. "
    "Every reply must call exactly one tool."
)


def _spec(name: str) -> dict[str, Any]:
    tool = default_registry().get(name)
    assert tool is not None
    return {"type": "function", "function": {"name": name, "description": tool.description(),
                                             "parameters": tool.Input.model_json_schema()}}  # fmt: skip


def stub_path(task: bench_tasks.Task) -> str:
    return next(p for p in task.files if p.endswith(".py") and not p.endswith("_test.py") and not p.startswith("."))


def prompt(task: bench_tasks.Task) -> list[dict[str, Any]]:
    shown = "\n\n".join(f"{path} reads:\n```\n{text.rstrip()}\n```" for path, text in task.files.items())
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"The goal: {task.goal}\n\n{shown}\n\nWrite the whole new content of {stub_path(task)}."},
    ]


async def one(model: LocalModel, task: bench_tasks.Task, fmt: str) -> dict[str, Any]:
    model.code_format = fmt
    start = time.monotonic()
    # the path held to the stub, as the agent's small policy holds it
    turn = await model.complete(prompt(task), tools=[hold(_spec("write_file"), {"path": [stub_path(task)]})])
    seconds = time.monotonic() - start
    call = turn.tool_calls[0] if turn.tool_calls else None
    args = json.loads(call.arguments) if call else {}
    content = args.get("content") if isinstance(args.get("content"), str) else None
    passed = False
    if content is not None:
        with tempfile.TemporaryDirectory() as tmp:
            root = bench_tasks.materialize(task, Path(tmp) / "ws", git=False)
            (root / stub_path(task)).write_text(content, encoding="utf-8")
            passed = verify(task, root, "completed", "").ok
    return {"task": task.name, "format": fmt, "parsed": content is not None, "passed": passed,
            "seconds": round(seconds, 1), "completion_tokens": turn.usage.completion_tokens,
            "path": args.get("path"), "content": content}  # fmt: skip


def summary(rows: list[dict[str, Any]], fmt: str) -> dict[str, Any]:
    mine = [r for r in rows if r["format"] == fmt]
    secs = [r["seconds"] for r in mine]
    return {
        "runs": len(mine),
        "passed": sum(r["passed"] for r in mine),
        "parsed": sum(r["parsed"] for r in mine),
        "median_s": statistics.median(secs) if secs else None,
        "completion_tokens": sum(r["completion_tokens"] for r in mine),
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-size", choices=("0.5b", "1.5b"), default="1.5b")
    parser.add_argument("--split", choices=("dev", "holdout", "all"), default="dev")
    parser.add_argument("--tasks", default="")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    tasks = [bench_tasks.load(p) for p in sorted((HERE / "agent_tasks" / "spec").glob("*.toml"))]
    tasks = [t for t in tasks if args.split == "all" or getattr(t, "split", "dev") == args.split]
    if args.tasks:
        tasks = [t for t in tasks if any(fnmatch.fnmatch(t.name, g) for g in args.tasks.split(","))]
    model = LocalModel(model=model_files.KNOWN_MODELS[args.model_size])
    rows: list[dict[str, Any]] = []
    load = [os.getloadavg()[0]]
    out = Path(args.out) if args.out else HERE / "results" / f"code_format_{args.model_size}.json"
    for task in tasks:
        for fmt in ("json", "fenced"):
            row = await one(model, task, fmt)
            rows.append(row)
            load.append(os.getloadavg()[0])
            print(f"{task.name:40} {fmt:7} {'PASS' if row['passed'] else 'fail'} {row['seconds']:6.1f}s", file=sys.stderr)
        result = {"model": args.model_size, "split": args.split, "load": [min(load), max(load)],
                  "formats": {f: summary(rows, f) for f in ("json", "fenced")}, "runs": rows}  # fmt: skip
        out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    await model.aclose()
    print(json.dumps({f: summary(rows, f) for f in ("json", "fenced")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
