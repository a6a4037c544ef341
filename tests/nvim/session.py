"""One headless Neovim session driving `agentls serve` through client.lua, and what it recorded.

`run_session` copies nothing and judges nothing: it writes the plan, starts
`nvim --headless -u NONE -i NONE -n` with XDG_* dirs under the session's tmp dir (so
lsp.log and shada stay out of ~), waits, and loads results.json and lsp.log.
`Session` answers questions about the recording (steps, final buffers, positions).
Must not know: which steps a test runs or what the answers should be.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

CLIENT_LUA = Path(__file__).resolve().parent / "client.lua"


@dataclass
class Session:
    root: Path
    returncode: int | None  # None: killed after the timeout
    output: str
    results: dict[str, Any]
    lsp_log: str

    def step(self, name: str) -> dict[str, Any]:
        steps = self.results.get("steps") or {}
        ran = self.results.get("order")
        assert name in steps, f"step {name!r} never ran (ran: {ran}){self.diagnostics()}"
        record: dict[str, Any] = steps[name]
        return record

    def lines(self, rel: str) -> list[str]:
        """A file as the server should see it: the final buffer if nvim opened it, else disk."""
        buffer = (self.results.get("buffers") or {}).get(rel)
        if buffer is not None:
            return list(buffer)
        return (self.root / rel).read_text("utf-8").splitlines()

    def find(self, rel: str, needle: str, offset: int = 0) -> tuple[int, int]:
        """(line, UTF-16 character) of the first `needle` in a file, plus `offset` code points."""
        for number, line in enumerate(self.lines(rel)):
            col = line.find(needle)
            if col >= 0:
                return number, len(line[: col + offset].encode("utf-16-le")) // 2
        raise AssertionError(f"{needle!r} not found in {rel}")

    def relative(self, uri: str) -> str:
        """A file URI as a workspace-relative POSIX path (absolute when outside the root)."""
        path = Path(unquote(urlparse(uri).path)).resolve()
        try:
            return path.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def diagnostics(self) -> str:
        tail = "\n".join(self.lsp_log.splitlines()[-30:])
        return (
            f"\n--- nvim exit code: {self.returncode}; driver error: {self.results.get('error')}"
            f"\n--- nvim output:\n{self.output[-2000:]}\n--- lsp.log (tail):\n{tail}"
        )


def run_session(
    tmp: Path, root: Path, server: list[str], plan: list[dict[str, Any]], timeout_s: float
) -> Session:
    plan_file = tmp / "plan.json"
    plan_file.write_text(json.dumps(plan, ensure_ascii=False), "utf-8")
    results_file = tmp / "results.json"
    xdg = {
        f"XDG_{k}_HOME": str(tmp / "xdg" / k.lower()) for k in ("CACHE", "CONFIG", "DATA", "STATE")
    }
    env = {
        **os.environ,
        **xdg,
        "AGENTLS_NVIM_CMD": json.dumps(server),
        "AGENTLS_NVIM_WORKSPACE": str(root),
        "AGENTLS_NVIM_PLAN": str(plan_file),
        "AGENTLS_NVIM_RESULTS": str(results_file),
    }
    command = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n"]
    command += ["-c", f"luafile {CLIENT_LUA}"]
    returncode: int | None
    try:
        proc = subprocess.run(
            command, cwd=root, env=env, capture_output=True, text=True, timeout=timeout_s
        )
        returncode, output = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        returncode, output = None, f"killed after {timeout_s} s: {exc.stdout!r} {exc.stderr!r}"
    results = json.loads(results_file.read_text("utf-8")) if results_file.exists() else {}
    log_file = tmp / "xdg" / "cache" / "nvim" / "lsp.log"
    lsp_log = log_file.read_text("utf-8", errors="replace") if log_file.exists() else "(no lsp.log)"
    return Session(root, returncode, output, results, lsp_log)
