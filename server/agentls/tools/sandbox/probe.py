"""Whether a sandbox backend works here: a real confined run of `true` in an empty folder,
started as commands will be (user namespaces may be off, Landlock disabled at boot).

The backend gives the argv that confines a command to a folder; the probe says why it
does not work, or nothing. Must not know: which backend, tools, the agent, LSP.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from agentls.tools.sandbox.environment import scrubbed_env


def probe(
    argv_for: Callable[[Path], list[str]], *, timeout: float, launcher: str, backend: str
) -> str | None:
    """Why `true`, confined to an empty folder by `argv_for(folder)`, did not run (None: it
    ran and exited 0). `launcher` names what failed to start, `backend` what does not work."""
    with tempfile.TemporaryDirectory(prefix="agentls-probe-") as tmp:
        folder = Path(tmp).resolve()
        try:
            done = subprocess.run(
                [*argv_for(folder), "true"], capture_output=True, timeout=timeout, env=scrubbed_env()
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{launcher} failed to start: {exc}"
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip()[:200]
        return f"{backend} does not work here: {detail or f'exit code {done.returncode}'}"
    return None
