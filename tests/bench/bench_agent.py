"""Agent overhead per acting step, excluding the model: a replayed transcript of many cheap
`read_file` calls through the real Agent (pipelines, prompt building, history, parsing,
the executor with its audit log, events).

A step's time is measured from one acting model call's start to the next one's; the
model's own time (a replay: ~0) is subtracted, and so is the tool's own `execute` time
for the "excluding the tool" figure. Target: ≤ 50 ms median agent overhead per step.
Run on demand: `.venv/bin/python tests/bench/bench_agent.py [--steps N] [--context-tokens N] [--json]`.
Must not know: anything beyond the public agent and tool APIs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from agentls.agent.agent import Agent, RunSettings
from agentls.llm.base import Message, ModelTurn, ToolSpec
from agentls.llm.replay import ReplayModel
from agentls.tools.base import ToolContext
from agentls.tools.filesystem import ReadFile
from agentls.tools.registry import ToolRegistry, default_registry
from agentls.workspace import Workspace


class TimedReadFile(ReadFile):
    spent_s: float = 0.0

    def execute(self, input: Any, ctx: ToolContext) -> Any:
        start = time.perf_counter()
        try:
            return super().execute(input, ctx)
        finally:
            TimedReadFile.spent_s += time.perf_counter() - start


class TimedReplay(ReplayModel):
    def __init__(self, path: Path, context_tokens: int) -> None:
        super().__init__(path, context_tokens=context_tokens)
        self.calls: list[tuple[str, float, float, float]] = []  # kind, start, model s, tool s

    async def complete(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        json_schema: dict[str, Any] | None = None,
        on_text: Any = None,
    ) -> ModelTurn:
        start = time.perf_counter()
        turn = await super().complete(messages, tools=tools, json_schema=json_schema, on_text=on_text)
        kind = "plan" if tools is None else "act"
        self.calls.append((kind, start, time.perf_counter() - start, TimedReadFile.spent_s))
        return turn


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def script(steps: int) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {"request": {"kind": "plan"}, "response": {"content": '["read"]'}}
    ]
    for i in range(steps):
        args = json.dumps({"path": f"src/mod_{i % 50}.py", "start_line": i % 7})
        call = {"id": f"c{i}", "name": "read_file", "arguments": args}
        usage = {"prompt_tokens": 1500, "completion_tokens": 30}
        lines.append(
            {
                "request": {"kind": "act"},
                "response": {"content": None, "tool_calls": [call], "usage": usage},
            }
        )
    done = {"id": "end", "name": "finish", "arguments": '{"summary": "read"}'}
    lines.append({"request": {"kind": "act"}, "response": {"content": None, "tool_calls": [done]}})
    lines.append({"request": {"kind": "plan"}, "response": {"content": "[]"}})
    return lines


async def measure(steps: int, context_tokens: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "src").mkdir()
        for i in range(50):
            (root / "src" / f"mod_{i}.py").write_text(
                "".join(f"value_{j} = {j}\n" for j in range(40))
            )
        path = root / "script.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in script(steps)))
        # The real tools, read_file replaced by its timed twin.
        registry = ToolRegistry(
            [TimedReadFile() if t.name == "read_file" else t for t in default_registry()]
        )
        model = TimedReplay(path, context_tokens)
        settings = RunSettings(mode="dev", approval="never", max_steps=steps + 5)
        agent = Agent(workspace=Workspace(root), model=model, settings=settings, registry=registry)
        started = time.perf_counter()
        state = await agent.run("Read the modules")
        total = time.perf_counter() - started
        assert state.status == "completed", (state.status, state.error)
    acting = [c for c in model.calls if c[0] == "act"]
    with_tool, without_tool = [], []
    for (_, start, model_s, tool_before), (_, next_start, _, tool_after) in zip(
        acting, acting[1:], strict=False
    ):
        step = next_start - start - model_s
        with_tool.append(step * 1000.0)
        without_tool.append((step - (tool_after - tool_before)) * 1000.0)
    return {
        "steps": len(with_tool),
        "context_tokens": context_tokens,
        "run_s": round(total, 3),
        "overhead_median_ms": round(statistics.median(with_tool), 3),
        "overhead_p95_ms": round(percentile(with_tool, 0.95), 3),
        "overhead_excluding_tool_median_ms": round(statistics.median(without_tool), 3),
        "overhead_excluding_tool_p95_ms": round(percentile(without_tool, 0.95), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--context-tokens", type=int, nargs="*", default=[4096, 32768, 1_000_000])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [asyncio.run(measure(args.steps, n)) for n in args.context_tokens]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(
            f"context {r['context_tokens']:>8} tokens: {r['steps']} steps  overhead median "
            f"{r['overhead_median_ms']:.2f} ms  p95 {r['overhead_p95_ms']:.2f} ms  (excluding the "
            f"tool: median {r['overhead_excluding_tool_median_ms']:.2f} ms, p95 "
            f"{r['overhead_excluding_tool_p95_ms']:.2f} ms)  run {r['run_s']:.1f} s"
        )
    worst = max(r["overhead_median_ms"] for r in results)
    print(f"target: overhead median <= 50 ms per step: {'met' if worst <= 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
