"""Search with ripgrep (`rg --json`), configured to see the same files as `FileWalker`.

ripgrep is an accelerator only: the caller falls back to its Python search when rg is
missing or rejects the pattern (its regex dialect differs from Python's).
Must not know: the tool's input/output models, the agent, LSP.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from agentls.workspace.walk import ALWAYS_SKIPPED_DIRS


class RipgrepUnusable(Exception):
    """rg could not run this search (bad pattern for its dialect, crash); fall back."""


def find_ripgrep() -> str | None:
    return shutil.which("rg")


def _command(rg: str, query: str, regex: bool, target: str) -> list[str]:
    cmd = [
        rg,
        "--json",
        "--no-config",
        "--sort=path",
        "--hidden",
        "--no-require-git",
        "--no-ignore-parent",
        "--no-ignore-global",
        "--no-ignore-dot",
    ]
    for name in sorted(ALWAYS_SKIPPED_DIRS):
        cmd += ["--glob", f"!{name}/"]
    cmd += ["--regexp", query] if regex else ["--fixed-strings", "--regexp", query]
    cmd += ["--", target]
    return cmd


def _text(field: dict[str, str]) -> str:
    if "text" in field:
        return field["text"]
    return base64.b64decode(field.get("bytes", "")).decode("utf-8", "replace")


def search(
    rg: str,
    root: Path,
    target: str,
    query: str,
    regex: bool,
    cancel: threading.Event,
) -> Iterator[tuple[str, int, str]]:
    """Yield (relative path, 0-based line, line text) for each matching line, in path order.

    Closing the generator early stops rg. Raises RipgrepUnusable when rg fails to search.
    """
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: rg may warn a lot
        proc = subprocess.Popen(
            _command(rg, query, regex, target),
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
        stop = threading.Event()
        threading.Thread(target=_kill_on, args=(proc, cancel, stop), daemon=True).start()
        found = False
        try:
            assert proc.stdout is not None
            for raw in proc.stdout:
                message = json.loads(raw)
                if message.get("type") != "match":
                    continue
                data = message["data"]
                path = _text(data["path"])
                path = path[2:] if path.startswith("./") else path
                found = True
                yield path, int(data["line_number"]) - 1, _text(data["lines"]).rstrip("\r\n")
            if proc.wait() == 2 and not found and not cancel.is_set():
                errors.seek(0)
                detail = errors.read().decode("utf-8", "replace").strip()
                raise RipgrepUnusable(detail or "rg failed")
        finally:
            stop.set()
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


def _kill_on(proc: subprocess.Popen[bytes], cancel: threading.Event, stop: threading.Event) -> None:
    while not stop.is_set() and proc.poll() is None:
        if cancel.wait(0.1):
            proc.kill()
            return
