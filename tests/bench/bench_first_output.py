"""What a user of an editor waits for (issue 24, item 6): from `agent/run` to the model's
first streamed output (`stream` event), to the first diff (`proposal` event) and to the
end, with the embedded default model in a running `agentls serve` — the first run (the
model loads) and the runs after it (the model loaded, its evaluated prompt prefix kept).

One-line goals on a copy of examples/sample-workspace, approval `never` (nothing is
written), mode dev. Usage: `.venv/bin/python tests/bench/bench_first_output.py [--runs N]`;
results in tests/bench/results/first_output.json with the load average. Run it on a quiet
machine: the model runs on the cores other processes leave free.
"""

from __future__ import annotations

import argparse
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

from tests.lsp.stdio_client import StdioClient  # noqa: E402

GOALS = [
    "Change TAX_RATE in src/shop/pricing.py to 0.25",
    "Add a docstring to the Cart class in src/shop/cart.py",
    "Make price_with_tax round to 3 decimal places",
]


def one(client: StdioClient, goal: str) -> dict[str, Any]:
    start = time.monotonic()
    run_id = client.result("agent/run", {"goal": goal, "mode": "dev", "approval": "never"}, timeout=60)["runId"]
    seen: dict[str, float] = {}
    end = None
    while end is None:
        found = client.wait_for(
            lambda m: m.label == "notification" and m.method == "agent/event" and m.body.get("runId") == run_id
            and m.body.get("kind") in ("stream", "proposal", "finished") and m.body.get("kind") not in seen,
            timeout=900, what="the run's events",
        )  # fmt: skip
        seen[found.body["kind"]] = time.monotonic() - start
        if found.body["kind"] == "finished":
            end = found.body
    return {
        "goal": goal,
        "first_output_s": round(seen.get("stream", -1), 2),
        "first_diff_s": round(seen.get("proposal", -1), 2),
        "end_s": round(seen["finished"], 2),
        "status": end.get("status"),
        "usage": end.get("usage"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=len(GOALS))
    args = parser.parse_args()
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(ROOT / "examples" / "sample-workspace", ws, ignore=shutil.ignore_patterns(".agentls"))
        client = StdioClient(ws, settings={"model": "local", "approval": "never"}, env=dict(os.environ))
        try:
            client.result("initialize", {"processId": None, "rootUri": ws.as_uri(), "capabilities": {
                "experimental": {"agentls": {"proposals": True}}}, "initializationOptions": {"model": "local"}})  # fmt: skip
            client.notify("initialized", {})
            rows = []
            for i in range(args.runs):
                rows.append(one(client, GOALS[i % len(GOALS)]))
                load.append(os.getloadavg()[0])
                print(json.dumps(rows[-1]), file=sys.stderr)
        finally:
            client.close()
    later = rows[1:] or rows
    result = {
        "load": [min(load), max(load)],
        "first_run": rows[0],
        "later_runs": {k: statistics.median(r[k] for r in later) for k in ("first_output_s", "first_diff_s", "end_s")},
        "runs": rows,
    }
    (ROOT / "tests" / "bench" / "results" / "first_output.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
