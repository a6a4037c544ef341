"""TypeScript oracle: runs bench_ts_oracle.js (the TypeScript language service from npm
`typescript` 5.x) over a list of positions and returns its answers. Must not know: agentls.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench_data import BENCH, TOOLS, npm_bin
from bench_positions import Position


def tsls_answers(root: Path, positions: list[Position]) -> dict[str, Any]:
    """{"version", "files", "answers": key -> {definition, references, def_s, ref_s[, error]}}."""
    npm_bin("tsc")  # installs the npm peers when absent
    ts_dir = TOOLS / "node_modules" / "typescript"
    with tempfile.TemporaryDirectory() as tmp:
        req, ans = Path(tmp) / "request.json", Path(tmp) / "answers.json"
        payload = {
            "root": os.path.realpath(root),
            "positions": [
                {"key": p.key(), "path": p.path, "offset16": p.offset16} for p in positions
            ],
        }
        req.write_text(json.dumps(payload))
        subprocess.run(
            [
                "node",
                "--max-old-space-size=2048",
                str(BENCH / "bench_ts_oracle.js"),
                str(ts_dir),
                str(req),
                str(ans),
            ],
            check=True,
            timeout=3600,
        )
        return json.loads(ans.read_text())
