"""How long a run's first model request waits for the project's rules and the goal's
@-mentions (DESIGN §9): the real Agent, its rules and mentions components, the real tools
through the executor, over the largest workspace at hand.

The workspace: a copy of the largest Python package in the venv (by `.py` files; the
openai SDK here, ~2000 files), with `AGENTS.md`, a 48 KB `CONVENTIONS.md` (cut to the
budget) and a `.clinerules/` folder, made a git repository with one file changed, and
its index built once beforehand (as the workbench does before a run). Each of `--runs`
runs asks for "Explain @<a module>, @symbol:<a class>, @diff and @problems" (the changed
module open as an editor document, for `@problems`) and is cancelled right before its
first model request. Reported: the time spent reading the rules and resolving the
mentions, p50 / p95 / max — what the first request waits for on their account (the rest
of that wait, the goal's reading and the repo map, is not theirs).
Run on demand: `.venv/bin/python tests/bench/bench_context.py [--runs 30]`.
Must not know: anything beyond the public agent, tool and index APIs.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import note_load, summary_ms, table, write_results

from agentls.agent.agent import Agent, RunSettings
from agentls.analysis.index import WorkspaceIndex
from agentls.llm.replay import ReplayModel
from agentls.workspace import Workspace


def largest_package() -> Path:
    site = Path(sysconfig.get_paths()["purelib"])
    found = [(sum(1 for _ in d.rglob("*.py")), d) for d in site.iterdir() if d.is_dir() and not d.name.endswith("-info")]
    return max(found)[1]


def make_workspace(tmp: Path) -> tuple[Path, str, str]:
    package = largest_package()
    root = tmp / "ws"
    shutil.copytree(package, root / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "AGENTS.md").write_text("Run the tests with `pytest -q`. Keep public names stable.\n")
    (root / "CONVENTIONS.md").write_text("".join(f"- Convention {i}: name things plainly.\n" for i in range(1200)))
    (root / ".clinerules").mkdir()
    (root / ".clinerules" / "01-style.md").write_text("Four spaces; no tabs.\n")
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    git = lambda *a: subprocess.run(["git", *a], cwd=root, check=True, capture_output=True, env=env)  # noqa: E731
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=B", "-c", "user.email=b@example.com", "commit", "-qm", "copy")
    modules = sorted(root.rglob("*.py"), key=lambda p: p.stat().st_size)
    module = modules[len(modules) // 2]  # a middling module
    module.write_text(module.read_text() + "\n# changed for the bench\n")
    rel = module.relative_to(root).as_posix()
    source = next((p for p in reversed(modules) if "\nclass " in p.read_text()), modules[-1])
    name = source.read_text().split("\nclass ", 1)[1].split("(", 1)[0].split(":", 1)[0].strip()
    return root, rel, name


async def one(root: Path, index: WorkspaceIndex, script: Path, goal: str, opened: str) -> tuple[float, float]:
    """One run up to its first request: the time its rules and its mentions took (the run
    is cancelled then: what follows — the repo map, the model — is not measured here)."""
    model = ReplayModel(script)
    workspace = Workspace(root)
    workspace.open(opened, (root / opened).read_text(), version=1)  # for @problems: an editor's document
    warnings: list[Any] = []
    agent = Agent(
        workspace=workspace, model=model, settings=RunSettings(approval="never"), index=index,
        on_event=lambda e: warnings.append(e.data) if e.kind == "warning" else None,
    )  # fmt: skip
    spent: dict[str, float] = {}

    def timed(name: str, prepare: Any) -> Any:
        async def wrapper(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return await prepare(*args)
            finally:
                spent[name] = time.perf_counter() - start
                if name == "mentions":
                    agent.cancel()  # the first request would come next

        return wrapper

    agent.rules.prepare = timed("rules", agent.rules.prepare)  # type: ignore[method-assign]
    agent.mentions.prepare = timed("mentions", agent.mentions.prepare)  # type: ignore[method-assign]
    await agent.run(goal)
    assert len(agent.mentions.blocks) == 4 and not warnings, f"a mention was not resolved: {warnings}"
    assert len(agent.rules.files) == 3 and agent.rules.files[2].cut, "the rules were not read (and cut)"
    return spent["rules"], spent["mentions"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    load = note_load("start")
    with tempfile.TemporaryDirectory() as tmp:
        root, module, name = make_workspace(Path(tmp))
        files = sum(1 for _ in root.rglob("*.py"))
        started = time.perf_counter()
        index = WorkspaceIndex(root)
        index.build()
        print(f"[bench_context] {files} files, index {time.perf_counter() - started:.1f} s; @{module}, @symbol:{name}", file=sys.stderr)
        script = Path(tmp) / "script.jsonl"
        script.write_text('{"request": {"kind": "plan"}, "response": {"content": "[]"}}\n')
        goal = f"Explain @{module}, @symbol:{name}, @diff and @problems"
        timings = [asyncio.run(one(root, index, script, goal, module)) for _ in range(args.runs)]
    rows = [
        ("rules (3 files, one cut)", summary_ms([r for r, _ in timings])),
        ("mentions (file, symbol, diff, problems)", summary_ms([m for _, m in timings])),
        ("both: what the first request waits for", summary_ms([r + m for r, m in timings])),
    ]
    print(table(["what", "p50 ms", "p95 ms", "max ms"], [(w, s["p50_ms"], s["p95_ms"], s["max_ms"]) for w, s in rows]))
    write_results("context", {
        "workspace": {"package": module.split("/", 1)[0], "py_files": files, "module": module, "symbol": name},
        "goal": goal, "runs": args.runs, "load_start": load, "load_end": note_load("end"),
        "results": {w: s for w, s in rows},
    })  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
