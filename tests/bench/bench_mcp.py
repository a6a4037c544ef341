"""A definition lookup through `agentls mcp` (`tools/call find_symbol_definition`) next to the
same lookup through `agentls serve` (`agent/executeTool`), in the same run, on the largest
corpus here: the sympy 1.14.0 sdist unpacked whole (bench_data.whole_sdist, as
bench_scale.py uses it: 1543 files, 756k lines).

Three servers run side by side on the corpus, each asked the same seeded identifier uses
(bench_positions.sample) in turn, the order rotated per position: `agentls mcp` driven by
the official Python SDK's `ClientSession` over stdio (what an MCP host sees: the SDK
client's parsing and its check of each result against the tool's outputSchema
included); `agentls mcp` driven by raw JSON lines (the server's own cost); `agentls serve`
driven by bench_lsp's small LSP client with `agent/executeTool` (mode read-only). Every
answer is checked equal across the three. Then a few calls each after 1.2 s idle: past
freshness.REFRESH_S, so each MCP call first refreshes the index from disk (a walk of the
workspace), as a real client's calls, seconds apart, do.

Usage: `.venv/bin/python tests/bench/bench_mcp.py [--calls 200] [--spaced 5]` (~2 min:
three cold indexes of sympy, the first writes the cache); results in results/mcp.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, whole_sdist
from bench_lsp import LspClient
from bench_positions import Position, sample
from bench_report import note_load, ratio, summary_ms, table, write_results
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types.version import LATEST_HANDSHAKE_VERSION

CORPUS = "sympy==1.14.0"
SEED = 2468
TOOL = "find_symbol_definition"
AGENTLS = [sys.executable, "-m", "agentls.cli"]


def arguments(p: Position) -> dict[str, Any]:
    return {"symbol": p.name, "path": p.path, "line": p.line, "character": p.char}


class RawMcp:
    """`agentls mcp` over stdio with hand-written JSON lines: no SDK on the client side."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [*AGENTLS, "mcp", "--workspace", str(root)], cwd=root, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=open(DATA / "mcp-raw.stderr", "wb"),  # noqa: SIM115
        )  # fmt: skip
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.next_id = 0

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = json.loads(self.lines.get(timeout=120))
            if message.get("id") == self.next_id:
                return message["result"]

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def initialize(self) -> None:
        self.request("initialize", {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})  # fmt: skip
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, args: dict[str, Any]) -> Any:
        return self.request("tools/call", {"name": TOOL, "arguments": args})["structuredContent"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Lsp:
    def __init__(self, root: Path) -> None:
        self.client = LspClient([*AGENTLS, "serve"], root, DATA / "mcp-lsp.stderr", env=dict(os.environ))
        self.client.initialize(root)

    def call(self, args: dict[str, Any]) -> Any:
        answer = self.client.request("agent/executeTool", {"name": TOOL, "input": args, "mode": "read-only"})
        assert answer["ok"], answer
        return answer["output"]


async def main(calls: int, spaced: int) -> None:
    root = whole_sdist(CORPUS)
    positions = sample(root, "python", calls, SEED, uses_only=True)
    note_load("start")
    params = StdioServerParameters(command=AGENTLS[0], args=[*AGENTLS[1:], "mcp", "--workspace", str(root)],
                                   env=dict(os.environ), cwd=str(root))  # fmt: skip
    errlog = open(DATA / "mcp-sdk.stderr", "w")  # noqa: SIM115
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()

        async def sdk(args: dict[str, Any]) -> Any:
            result = await session.call_tool(TOOL, args)
            assert not result.is_error, result.content
            return result.structured_content

        raw, lsp = RawMcp(root), Lsp(root)
        raw.initialize()
        first = positions[0]
        ready = {}
        for name, ask in (("mcp-sdk", None), ("mcp-raw", raw.call), ("lsp", lsp.call)):
            t = time.perf_counter()  # waits for the server's index (the first one writes the cache)
            await sdk(arguments(first)) if ask is None else ask(arguments(first))
            ready[name] = round(time.perf_counter() - t, 2)
        print(f"first answers (index built): {ready}", file=sys.stderr)
        note_load("timed")
        times: dict[str, list[float]] = {"mcp-sdk": [], "mcp-raw": [], "lsp": []}
        resolved = 0

        async def one(name: str, p: Position, into: dict[str, list[float]]) -> Any:
            args = arguments(p)
            t = time.perf_counter()
            out = await sdk(args) if name == "mcp-sdk" else (raw.call(args) if name == "mcp-raw" else lsp.call(args))
            into[name].append(time.perf_counter() - t)
            return out

        order = ["mcp-sdk", "mcp-raw", "lsp"]
        for i, p in enumerate(positions):
            turn = order[i % 3:] + order[: i % 3]
            answers = {name: await one(name, p, times) for name in turn}
            assert answers["mcp-sdk"] == answers["mcp-raw"] == answers["lsp"], (p, answers)
            resolved += answers["lsp"]["how"] == "resolved"
        idle: dict[str, list[float]] = {"mcp-sdk": [], "mcp-raw": [], "lsp": []}
        for p in positions[:spaced]:
            for name in order:
                await asyncio.sleep(1.2)
                await one(name, p, idle)
        load = note_load("end")
        raw.close()
        lsp.client.close()
    stats = {name: summary_ms(values) for name, values in times.items()}
    idle_stats = {name: summary_ms(values) for name, values in idle.items()}
    rows = [[name, s["n"], s["p50_ms"], s["p95_ms"], s["max_ms"], ratio(s["p50_ms"], stats["lsp"]["p50_ms"]),
             ratio(s["p95_ms"], stats["lsp"]["p95_ms"])] for name, s in stats.items()]  # fmt: skip
    rows += [[f"{name}, after 1.2 s idle", s["n"], s["p50_ms"], s["p95_ms"], s["max_ms"], None, None]
             for name, s in idle_stats.items()]  # fmt: skip
    print(f"\n{TOOL} on {root.name} ({len(positions)} seeded uses, {resolved} resolved); "
          f"first answers {ready} s; load {load}")  # fmt: skip
    print(table(["client", "n", "p50 ms", "p95 ms", "max ms", "p50 / lsp", "p95 / lsp"], rows))
    write_results("mcp", {"corpus": CORPUS, "tool": TOOL, "calls": len(positions), "resolved": resolved,
                          "first_answer_s": ready, "tight": stats, "after_idle": idle_stats})  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--spaced", type=int, default=5)
    ns = parser.parse_args()
    asyncio.run(main(ns.calls, ns.spaced))
