"""A soak of one `agentls serve`: thousands of mixed LSP requests and tens of scripted runs
(`agent/run`, approval auto, a recorded model making one edit_file each, written on disk
through the durable write path and its lock), with the RSS summed over the server's
process group and its open file descriptors sampled at the start (index built), after
each round, and at the end — what leaks shows as a rise from round to round.

The workspace is a copy of this repository's `server/agentls` under `lib/` (~270 files) plus one
`soak_target.py` the runs edit, line by line. Each round: one run started, then
`--requests` requests (definition, references, hover, documentSymbol, workspace/symbol,
and a didOpen/didChange/didClose of a file, in turn over seeded positions) while it runs,
then the wait for its end (`agent/status`). Every run must complete with its edit on disk.

Usage: `.venv/bin/python tests/bench/bench_soak.py [--runs 30] [--requests 170] [--no-runs] [--kinds 012345]`
(~2.5 min on 2 busy cores); results in results/soak.json. `--no-runs` and `--kinds` take the
mix apart (requests only; only some kinds of request).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_lsp import LspClient, LspError
from bench_positions import sample
from bench_report import note_load, write_results

REPO = Path(__file__).resolve().parents[2]
AGENTLS = [sys.executable, "-m", "agentls.cli"]
MB = 1024 * 1024
LINES = 200


def group_usage(client: LspClient) -> dict[str, int]:
    """RSS summed over the server's process group, open fds, and processes."""
    rss = fds = 0
    pids = client.group()
    for pid in pids:
        try:
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            fds += len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            continue
    return {"rss_mb": round(rss / MB, 1), "fds": fds, "processes": len(pids)}


def script(tmp: Path, n: int) -> Path:
    turns: list[dict[str, Any]] = [
        {"response": {"content": json.dumps([f"Set value_{n} to {n + 1}"])}},
        {"response": {"tool_calls": [{"id": "call_1", "name": "edit_file", "arguments": {
            "path": "soak_target.py", "old": f"value_{n} = 0\n", "new": f"value_{n} = {n + 1}\n"}}]}},
        {"response": {"tool_calls": [{"id": "call_2", "name": "finish", "arguments": {"summary": "set"}}]}},
        {"response": {"content": "[]"}},
    ]  # fmt: skip
    path = tmp / f"run-{n}.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns), "utf-8")
    return path


def ask(client: LspClient, method: str, params: Any) -> None:
    """A request; ContentModified (-32801: a run's edit landed during a references search)
    is asked again, as a client does."""
    for _ in range(5):
        try:
            client.request(method, params)
            return
        except LspError as exc:
            if "-32801" not in str(exc):
                raise
            MODIFIED.append(method)


MODIFIED: list[str] = []


def request_mix(client: LspClient, root: Path, positions: list[Any], start: int, count: int, kinds: str = "012345") -> int:
    """`count` requests over the positions from `start`; the number answered."""
    answered = 0
    for i in range(start, start + count):
        p = positions[i % len(positions)]
        uri = (root / p.path).as_uri()
        where = {"textDocument": {"uri": uri}, "position": {"line": p.line, "character": p.char}}
        kind = int(kinds[i % len(kinds)])
        if kind == 0:
            ask(client, "textDocument/definition", where)
        elif kind == 1:
            ask(client, "textDocument/references", {**where, "context": {"includeDeclaration": True}})
        elif kind == 2:
            ask(client, "textDocument/hover", where)
        elif kind == 3:
            ask(client, "textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        elif kind == 4:
            ask(client, "workspace/symbol", {"query": p.name[:3]})
        else:
            opened = client.open(root / p.path, "python")
            text = (root / p.path).read_text("utf-8")
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": opened, "version": 2},
                "contentChanges": [{"text": text + "\n# soak\n"}]})  # fmt: skip
            ask(client, "textDocument/documentSymbol", {"textDocument": {"uri": opened}})
            client.close_document(opened)
        answered += 1
    return answered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--requests", type=int, default=170, help="requests per round")
    parser.add_argument("--no-runs", action="store_true", help="requests only (rounds without a run)")
    parser.add_argument("--kinds", default="012345", help="which requests of the mix (0 definition … 5 open/change/close)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="agentls-soak-"))
    root = tmp / "ws"
    shutil.copytree(REPO / "server" / "agentls", root / "lib" / "agentls", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "soak_target.py").write_text("".join(f"value_{i} = 0\n" for i in range(LINES)), "utf-8")
    positions = sample(root, "python", 400, seed=97, uses_only=True)
    load = [note_load("start")]
    client = LspClient([*AGENTLS, "serve"], root, tmp / "serve.stderr", env=dict(os.environ))
    try:
        client.initialize(root, {"mode": "dev", "approval": "auto"})
        client.request("textDocument/definition", {  # waits for the first index
            "textDocument": {"uri": (root / positions[0].path).as_uri()},
            "position": {"line": positions[0].line, "character": positions[0].char}})  # fmt: skip
        samples = [{"round": 0, **group_usage(client)}]
        print(f"start: {samples[0]}", flush=True)
        answered, statuses, t0 = 0, [], time.monotonic()
        for n in range(args.runs):
            state = {"status": "completed"}
            if not args.no_runs:
                client.notify("workspace/didChangeConfiguration", {"settings": {"agentls": {
                    "mode": "dev", "approval": "auto", "model": f"replay:{script(tmp, n)}"}}})  # fmt: skip
                run_id = client.request("agent/run", {"goal": f"Set value_{n} to {n + 1} in soak_target.py",
                                                      "approval": "auto"})["runId"]  # fmt: skip
            answered += request_mix(client, root, positions, n * args.requests, args.requests, args.kinds)
            while not args.no_runs and (state := client.request("agent/status", {"runId": run_id}))["status"] == "running":
                time.sleep(0.02)
            statuses.append(state["status"])
            if state["status"] != "completed":
                print(f"run {n}: {state['status']}: {state.get('summary')}", flush=True)
            samples.append({"round": n + 1, **group_usage(client)})
            print(f"round {n + 1}: {state['status']} {samples[-1]}", flush=True)
        seconds = time.monotonic() - t0
        text = (root / "soak_target.py").read_text("utf-8")
        landed = sum(f"value_{n} = {n + 1}\n" in text for n in range(args.runs))
        stray = sorted(p.name for p in (root / ".agentls" / "tmp").iterdir())
    finally:
        client.close()
    load.append(note_load("end"))
    first, last = samples[0], samples[-1]
    result = {
        "command": f"tests/bench/bench_soak.py --runs {args.runs} --requests {args.requests}",
        "workspace_files": sum(1 for _ in root.rglob("*.py")),
        "requests": answered,
        "content_modified_retries": len(MODIFIED),
        "runs": args.runs,
        "runs_completed": statuses.count("completed"),
        "edits_on_disk": landed,
        "temp_files_left": stray,
        "seconds": round(seconds, 1),
        "start": first,
        "warm": samples[1],  # after the first round: the agent, the run machinery loaded
        "end": last,
        "rss_rise_mb": round(last["rss_mb"] - first["rss_mb"], 1),
        "rss_rise_after_warm_mb": round(last["rss_mb"] - samples[1]["rss_mb"], 1),
        "fd_rise": last["fds"] - first["fds"],
        "leaked_processes": client.leaked,
        "samples": samples,
        "load": load,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=1))
    write_results("soak", result)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
