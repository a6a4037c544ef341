"""The embedded model on this machine: seconds per agent step and tokens per second.

Runs one planning turn and a few acting turns of an agent-like conversation (every
registry tool offered, canned tool results appended, one `Llama` object kept so the prompt
prefix is reused) through `LocalModel`, and reports per turn: wall seconds, time to the
first output token (≈ prompt evaluation), prompt and completion tokens, and generation
tokens/s. Needs `agentls[local]` (llama-cpp-python + the model parts).
Run on demand: `.venv/bin/python tests/bench/bench_local_model.py [--model 0.5b|1.5b]
[--steps 5] [--threads 1] [--json] [--save]` (`--save` writes results/local_model.json).
Must not know: the agent loop (it imitates one turn sequence only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

from bench_report import machine, table, write_results

from agentls.llm.base import TASKS_SCHEMA, ModelTurn
from agentls.llm.local import LocalModel, model_files
from agentls.tools.registry import default_registry

SYSTEM = (
    "You are agentls, an autonomous software engineer working inside the user's repository. "
    "Work step by step: look at the files you need, then act. Call exactly one tool per step. "
    "Edits become proposals the user reviews. When the task is done, call finish with a short "
    "summary of what you found or changed."
)
GOAL = "Find where the greeting is printed in this project and report the file and line."
RESULTS = {
    "list_directory": '{"entries": [{"name": "README.md", "type": "file", "size": 120}, {"name": "src", "type": "dir"}]}',
    "search_files": '{"matches": [{"path": "src/app.py", "line": 3, "text": "    print(\\"hello, world\\")"}]}',
    "read_file": '{"path": "src/app.py", "content": "def main():\\n    name = \\"world\\"\\n    print(f\\"hello, {name}\\")\\n"}',
}


class Timed:
    """Wraps `create_chat_completion` to time the first streamed token."""

    def __init__(self, llama: Any) -> None:
        self.llama = llama
        self.first_token_s: float | None = None
        self._inner = llama.create_chat_completion
        llama.create_chat_completion = self

    def __call__(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        start = time.perf_counter()
        self.first_token_s = None
        for chunk in self._inner(**kwargs):
            if self.first_token_s is None and chunk["choices"][0].get("delta", {}).get("content"):
                self.first_token_s = time.perf_counter() - start
            yield chunk


def tool_specs() -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description(),
                "parameters": t.Input.model_json_schema(),
            },
        }
        for t in default_registry()
    ]


def row(kind: str, turn: ModelTurn, seconds: float, first: float | None) -> dict[str, Any]:
    gen_s = seconds - (first or 0.0)
    call = turn.tool_calls[0] if turn.tool_calls else None
    return {
        "turn": kind,
        "seconds": round(seconds, 2),
        "first_token_s": round(first, 2) if first is not None else None,
        "prompt_tokens": turn.usage.prompt_tokens,
        "completion_tokens": turn.usage.completion_tokens,
        "gen_tokens_per_s": round(turn.usage.completion_tokens / gen_s, 1) if gen_s > 0 else None,
        "output": f"{call.name} {call.arguments}"[:70] if call else (turn.content or "")[:70],
    }


async def run(model_key: str, steps: int, threads: int) -> dict[str, Any]:
    known = model_files.KNOWN_MODELS[model_key]
    model = LocalModel(model=known, n_threads=threads)
    start = time.perf_counter()
    model.prepare()
    prepare_s = time.perf_counter() - start
    start = time.perf_counter()
    timed = Timed(model._loaded())
    load_s = time.perf_counter() - start
    tools = tool_specs()
    history: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": GOAL},
    ]
    rows = []
    start = time.perf_counter()
    plan = await model.complete(
        history + [{"role": "user", "content": "List at most 3 tasks as a JSON array of strings."}],
        json_schema=TASKS_SCHEMA,
    )
    rows.append(row("plan", plan, time.perf_counter() - start, timed.first_token_s))
    history.append({"role": "user", "content": f"Current task: {GOAL}"})
    for step in range(1, steps + 1):
        start = time.perf_counter()
        turn = await model.complete(history, tools=tools)
        rows.append(row(f"act {step}", turn, time.perf_counter() - start, timed.first_token_s))
        history.append(turn.as_message())
        if turn.tool_calls:
            call = turn.tool_calls[0]
            result = RESULTS.get(call.name, '{"ok": true}')
            history.append({"role": "tool", "tool_call_id": call.id, "content": result})
        else:
            history.append({"role": "user", "content": "Error: reply with one tool call."})
    await model.aclose()
    acts = [r for r in rows if r["turn"].startswith("act")]
    return {
        "model": model_key,
        "threads": threads,
        "prepare_s": round(prepare_s, 2),
        "load_s": round(load_s, 2),
        "turns": rows,
        "act_seconds_median": sorted(r["seconds"] for r in acts)[len(acts) // 2] if acts else None,
        "gen_tokens_per_s_median": sorted(r["gen_tokens_per_s"] or 0 for r in acts)[len(acts) // 2]
        if acts
        else None,
        "machine": machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="0.5b", choices=sorted(model_files.KNOWN_MODELS))
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.model, args.steps, args.threads))
    if args.save:
        write_results("local_model", result)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"model {result['model']}, {result['threads']} thread(s); prepare {result['prepare_s']} s, load {result['load_s']} s"
    )
    headers = [
        "turn",
        "seconds",
        "first_token_s",
        "prompt_tokens",
        "completion_tokens",
        "gen_tokens_per_s",
        "output",
    ]
    print(table(headers, [[r[h] for h in headers] for r in result["turns"]]))
    print(
        f"median act step {result['act_seconds_median']} s; median generation {result['gen_tokens_per_s_median']} tokens/s"
    )


if __name__ == "__main__":
    main()
