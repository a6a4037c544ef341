"""Time to first answer: spawn a language server on stdio, initialize, open a file and ask
textDocument/definition every 10 ms until the reply is non-empty. Default server:
`.venv/bin/agentls serve`; any other command (pyright-langserver --stdio) for comparison.
Must not know: agentls internals.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_data import DATA, agentls_command
from bench_lsp import LspClient, LspError


def _segment_use(root: Path) -> tuple[str, int, int]:
    rel = "rich/console.py"
    for i, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines()):
        if "Segment(" in line and "import" not in line and not line.lstrip().startswith("#"):
            return rel, i, line.index("Segment(")
    raise RuntimeError("no Segment( use in rich/console.py")


def first_answer(
    root: Path,
    cold: bool,
    cmd: list[str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
) -> dict[str, Any]:
    """Spawn a server (default `agentls serve`) and time its first non-empty definition."""
    if cmd is None:
        exe = agentls_command()
        if not exe.exists():
            return {"cold": cold, "error": f"{exe} does not exist"}
        cmd = [str(exe), "serve"]
    if cold:
        shutil.rmtree(root / ".agentls", ignore_errors=True)
    rel, line, char = _segment_use(root)
    env = dict(env or os.environ)
    xdg = tempfile.mkdtemp(prefix="agentls-bench-xdg-")
    env["XDG_CACHE_HOME"] = xdg
    t0 = time.perf_counter()
    client = LspClient(cmd, root, DATA / f"{Path(cmd[0]).name}-first-answer.stderr", env=env)
    out: dict[str, Any] = {
        "cold": cold,
        "server": Path(cmd[0]).name,
        "position": f"{rel}:{line + 1}:{char + 1}",
    }
    try:
        client.initialize(root, options={}, timeout=timeout)
        t_init = time.perf_counter()
        out["initialize_s"] = round(t_init - t0, 4)
        uri = client.open(root / rel, "python")
        params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": char}}
        attempts = 0
        while time.perf_counter() - t_init < timeout:
            attempts += 1
            result = client.request("textDocument/definition", params, timeout=timeout)
            if result:
                t_done = time.perf_counter()
                out.update(
                    {
                        "first_answer_after_initialized_s": round(t_done - t_init, 4),
                        "first_answer_after_spawn_s": round(t_done - t0, 4),
                        "attempts": attempts,
                        "answer": result if isinstance(result, dict) else result[:3],
                    }
                )
                break
            time.sleep(0.01)
        else:
            out["error"] = f"no non-empty definition within {timeout}s ({attempts} attempts)"
    except (LspError, OSError) as exc:
        out["error"] = str(exc)
    finally:
        client.close()
        if client.leaked:
            out["killed_leftover_workers"] = len(client.leaked)
        shutil.rmtree(xdg, ignore_errors=True)
    return out


def first_answer_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"runs": len(runs), "failed": sum(1 for r in runs if "error" in r)}
    for label, cold in (("cold", True), ("warm", False)):
        ok = sorted(
            r["first_answer_after_initialized_s"]
            for r in runs
            if r.get("cold") == cold and "error" not in r
        )
        out[f"{label}_ok"] = len(ok)
        out[f"{label}_median_s"] = ok[len(ok) // 2] if ok else None
    ok_all = [r["first_answer_after_initialized_s"] for r in runs if "error" not in r]
    out["worst_ok_s"] = max(ok_all) if ok_all else None
    out["leftover_workers_killed"] = sum(r.get("killed_leftover_workers", 0) for r in runs)
    return out
