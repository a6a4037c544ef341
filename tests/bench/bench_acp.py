"""What a user of an ACP editor waits for (issue 20): from `session/prompt` to the first
`session/update`, to the first diff and to the prompt's answer, next to the same run over
LSP (`agent/run` to the first `agent/event`) in the same session of measurements.

Two models: `scripted` (the test suite's OpenAI-compatible scripted server: the front
ends' own overhead, many prompts) and `local` (the embedded default model on a copy of
examples/sample-workspace, approval `never`: what a user sees; slow, few prompts, the first
one loads the model). The ACP client is the official Python SDK's (`acp.spawn_agent_process`).
Usage: `.venv/bin/python tests/bench/bench_acp.py [--model scripted|local] [--runs N]`;
results in tests/bench/results/acp_<model>.json with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from acp.schema import ClientCapabilities  # noqa: E402
from tests.llm.fake_openai import FakeOpenAIServer  # noqa: E402
from tests.lsp.stdio_client import StdioClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_first_output import GOALS  # noqa: E402  (the same one-line goals)

from acp import spawn_agent_process, text_block  # noqa: E402

#: The scripted model only reads and answers: questions, so that no check asks for more.
QUESTIONS = [
    "What is TAX_RATE in src/shop/pricing.py?",
    "What does price_with_tax in src/shop/pricing.py return?",
]
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def scripted_turns(n: int) -> list[dict[str, Any]]:
    """One short run per prompt: a plan, a read, a finish, an empty plan."""
    turns: list[dict[str, Any]] = []
    for i in range(n):
        call = {"id": f"c{i}", "name": "read_file", "arguments": json.dumps({"path": "src/shop/pricing.py"})}
        done = {"id": f"f{i}", "name": "finish", "arguments": json.dumps({"summary": "TAX_RATE is 0.2"})}
        turns += [{"content": '["Read pricing.py"]', "usage": USAGE}, {"tool_calls": [call], "usage": USAGE},
                  {"tool_calls": [done], "usage": USAGE}, {"content": "[]", "usage": USAGE}]  # fmt: skip
    return turns


class Watcher:
    """The ACP client's side: notes when each kind of update first arrives."""

    def __init__(self) -> None:
        self.start = 0.0
        self.seen: dict[str, float] = {}
        self.last_message = ""

    def on_connect(self, conn: Any) -> None:
        return None

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        kind = "any"
        self.seen.setdefault(kind, time.monotonic() - self.start)
        name = getattr(update, "session_update", "")
        self.seen.setdefault(name, time.monotonic() - self.start)
        if name == "agent_message_chunk":
            self.last_message = getattr(update.content, "text", "")
        if name == "tool_call_update" and any(getattr(c, "type", "") == "diff" for c in update.content or []):
            self.seen.setdefault("diff", time.monotonic() - self.start)

    async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("approval never: nothing is asked")


async def acp_runs(ws: Path, command: list[str], goals: list[str]) -> list[dict[str, Any]]:
    watcher = Watcher()
    rows = []
    async with spawn_agent_process(watcher, *command, cwd=str(ws)) as (conn, _process):  # type: ignore[arg-type]
        await conn.initialize(protocol_version=1, client_capabilities=ClientCapabilities())
        session = await conn.new_session(cwd=str(ws), mcp_servers=[])
        for goal in goals:
            watcher.seen, watcher.start = {}, time.monotonic()
            answer = await conn.prompt(session_id=session.session_id, prompt=[text_block(goal)])
            end = time.monotonic() - watcher.start
            rows.append({"goal": goal, "first_update_s": round(watcher.seen.get("any", -1), 3),
                         "first_thought_s": round(watcher.seen.get("agent_thought_chunk", -1), 3),
                         "first_diff_s": round(watcher.seen.get("diff", -1), 3),
                         "end_s": round(end, 3), "stop": answer.stop_reason,
                         "report": watcher.last_message[:200]})  # fmt: skip
            print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def lsp_runs(ws: Path, settings: dict[str, Any], goals: list[str]) -> list[dict[str, Any]]:
    client = StdioClient(ws, settings=settings, env=dict(os.environ))
    rows = []
    try:
        client.result("initialize", {"processId": None, "rootUri": ws.as_uri(), "capabilities": {
            "experimental": {"agentls": {"proposals": True}}}, "initializationOptions": settings})  # fmt: skip
        client.notify("initialized", {})
        for goal in goals:
            start = time.monotonic()
            run_id = client.result("agent/run", {"goal": goal, "mode": "dev", "approval": "never"}, timeout=60)["runId"]
            client.wait_for(
                lambda m, run_id=run_id: m.label == "notification" and m.method == "agent/event"
                and m.body.get("runId") == run_id, timeout=900, what="the run's first event",
            )  # fmt: skip
            first = time.monotonic() - start  # (wait_for returns as the message is read)
            client.wait_for(
                lambda m, run_id=run_id: m.label == "notification" and m.method == "agent/event"
                and m.body.get("runId") == run_id and m.body.get("kind") == "finished",
                timeout=900, what="the run's end",
            )  # fmt: skip
            rows.append({"goal": goal, "first_update_s": round(first, 3), "end_s": round(time.monotonic() - start, 3)})
            print(json.dumps(rows[-1]), file=sys.stderr)
    finally:
        client.close()
    return rows


def stats(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    values = sorted(r[key] for r in rows if r.get(key, -1) >= 0)
    if not values:
        return {}
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"median": round(statistics.median(values), 3), "p95": round(p95, 3), "max": values[-1], "n": len(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=["scripted", "local"], default="scripted")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (20 if args.model == "scripted" else 3)
    asked = QUESTIONS if args.model == "scripted" else GOALS
    goals = [asked[i % len(asked)] for i in range(runs)]
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(ROOT / "examples" / "sample-workspace", ws, ignore=shutil.ignore_patterns(".agentls"))
        agentls = [sys.executable, "-m", "agentls.cli", "acp", "--mode", "dev", "--approve", "never"]
        if args.model == "scripted":
            with FakeOpenAIServer(scripted_turns(runs)) as server:
                acp = asyncio.run(acp_runs(ws, [*agentls, "--model", "openai:bench", "--base-url", server.base_url], goals))
            load.append(os.getloadavg()[0])
            with FakeOpenAIServer(scripted_turns(runs)) as server:
                lsp = lsp_runs(ws, {"model": "openai:bench", "baseUrl": server.base_url, "approval": "never"}, goals)
        else:
            acp = asyncio.run(acp_runs(ws, [*agentls, "--model", "local"], goals))
            load.append(os.getloadavg()[0])
            lsp = lsp_runs(ws, {"model": "local", "approval": "never"}, goals)
        load.append(os.getloadavg()[0])
    result = {
        "model": args.model,
        "load": [min(load), max(load)],
        "acp": {k: stats(acp, k) for k in ("first_update_s", "first_thought_s", "first_diff_s", "end_s")},
        "lsp": {k: stats(lsp, k) for k in ("first_update_s", "end_s")},
        "acp_runs": acp,
        "lsp_runs": lsp,
    }
    first_acp, first_lsp = result["acp"]["first_update_s"], result["lsp"]["first_update_s"]
    if first_acp and first_lsp and first_lsp["median"] > 0:
        result["ratio_first_update_acp_over_lsp"] = round(first_acp["median"] / first_lsp["median"], 2)
    out = ROOT / "tests" / "bench" / "results" / f"acp_{args.model}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if not k.endswith("_runs")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
