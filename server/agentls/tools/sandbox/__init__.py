"""The sandbox every shell tool runs its processes in (DESIGN §3, Sandbox).

`run_process` runs a command with a scrubbed environment (an allow-list, minus anything
that looks like a secret), a timeout, cancellation, capped output, and OS confinement by
the backend the `shellSandbox` setting picks (config.py): bubblewrap (bubblewrap.py) or
Landlock (landlock.py, landlock_child.py), both showing the command only the workspace
and the system's own folders (hostview.py), without capabilities or setuid gain, and
without network unless the config allows it; or — only when the user chose it — none.
A command can run in a scratch copy of the workspace and report what it changed
(scratch.py). Must not know: any particular tool, the agent, LSP.
"""

from agentls.tools.sandbox.bubblewrap import bubblewrap_status
from agentls.tools.sandbox.config import (
    CHOICES,
    SandboxChoice,
    SandboxConfig,
    SandboxKind,
    SandboxUnavailable,
    backend_status,
    describe_sandbox,
    resolve_kind,
    sandbox_for,
    sandbox_status,
    unconfined_notice,
)
from agentls.tools.sandbox.environment import scrubbed_env
from agentls.tools.sandbox.landlock import landlock_status
from agentls.tools.sandbox.runner import DEFAULT_OUTPUT_CAP, ProcessResult, run_process
from agentls.tools.sandbox.scratch import SHARED_DIRS, SKIPPED_DIRS, Changes

__all__ = [
    "CHOICES",
    "DEFAULT_OUTPUT_CAP",
    "SHARED_DIRS",
    "SKIPPED_DIRS",
    "Changes",
    "ProcessResult",
    "SandboxChoice",
    "SandboxConfig",
    "SandboxKind",
    "SandboxUnavailable",
    "backend_status",
    "bubblewrap_status",
    "describe_sandbox",
    "landlock_status",
    "resolve_kind",
    "run_process",
    "sandbox_for",
    "sandbox_status",
    "scrubbed_env",
    "unconfined_notice",
]
