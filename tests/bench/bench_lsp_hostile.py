"""Peak memory of the server under the hostile-traffic suite (tests/lsp/test_fuzz.py):
the shared server's VmHWM after every session-level example has run, on the sample
workspace. Target (issue 10): ≤ 300 MB.

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
    print(f"suite {'passed' if proc.returncode == 0 else 'FAILED'} in {seconds} s; server peak RSS (VmHWM) {peak_mb} MB")
    write_results("lsp_hostile", {"scale": args.scale, "suite_passed": proc.returncode == 0, "seconds": seconds, "server_peak_rss_mb": peak_mb, "target_mb": 300, "loadavg_before": load})


if __name__ == "__main__":
    main()
