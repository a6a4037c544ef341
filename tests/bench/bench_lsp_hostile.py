"""Peak memory of the server under the hostile-traffic suite (tests/lsp/test_fuzz.py):
the shared server's VmHWM after every session-level example has run, on the sample
workspace; and of a fresh server sent the largest message it takes (a didOpen just under
the framing limit, then a didChange). Target (issue 10): ≤ 300 MB.

    .venv/bin/python tests/bench/bench_lsp_hostile.py [--scale N]

--scale multiplies the suite's examples. Writes tests/bench/results/lsp_hostile.json.
Must not know: agentls internals (it runs the test suite as a user would).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_report import note_load, write_results

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def largest_message_peak_mb() -> float:
    from tests.lsp.conftest import copy_sample
    from tests.lsp.wire import Wire, initialize_params

    from agentls.lsp.framing import MAX_MESSAGE

    with tempfile.TemporaryDirectory() as tmp:
        root = copy_sample(Path(tmp))
        (Path(tmp) / "outside").mkdir()
        wire = Wire(Path(tmp), Path(tmp) / "outside")
        wire.request("initialize", initialize_params(root))
        wire.notify("initialized", {})
        uri = (root / "big.py").as_uri()
        text = "def f(a):\n    return a\n" * ((MAX_MESSAGE - 1000) // 26)  # 26 bytes a line in JSON
        wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        edit = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x = 1\n"}
        wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [edit]})
        assert "result" in wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 5}}, timeout=300)
        peak = wire.peak_rss_kb() / 1024
        wire.request("shutdown")
        wire.notify("exit")
        wire.close()
    return round(peak, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    load = note_load("before")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rss"
        env = dict(os.environ, AGENTLS_FUZZ_RSS_OUT=str(out), AGENTLS_FUZZ_SCALE=str(args.scale))
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/lsp/test_fuzz.py"], cwd=REPO, env=env)
        seconds = round(time.monotonic() - start, 1)
        peak_mb = round(int(out.read_text()) / 1024, 1) if out.exists() else None
    largest = largest_message_peak_mb()
    print(f"suite {'passed' if proc.returncode == 0 else 'FAILED'} in {seconds} s; server peak RSS (VmHWM) {peak_mb} MB")
    print(f"largest message (didOpen near the limit + didChange): server peak RSS {largest} MB")
    write_results("lsp_hostile", {"scale": args.scale, "suite_passed": proc.returncode == 0, "seconds": seconds, "server_peak_rss_mb": peak_mb,
                                  "largest_message_peak_rss_mb": largest, "target_mb": 300, "loadavg_before": load})


if __name__ == "__main__":
    main()
