"""The one way to start a run, shared by every front end (CLI, LSP, and later ACP and MCP).

- `request.py` — `RunRequest`: what a front end asks for (goal, mode, approval, step
  budget, editor context), checked in one place; a bad field is a `RunRequestError`
  naming it.
- `workbench.py` — `Workbench`: one workspace's tools (registry, executor and audit log,
  ProposalStore, index), shared by its runs and one-off tool calls.
- `starting.py` — `start_run`: the run's one id, its settings, its trace, the Agent and
  the task driving it; the `RunHandle` the front end keeps (id, state, approval,
  `listen`, `wait`, `cancel`).

A front end turns its protocol's input into a RunRequest, listens to the run's events and
presents proposals its own way; it assembles nothing else. Must not know: any front end.
"""

from agentls.agent.launch.request import MAX_STEPS_LIMIT, RunRequest, RunRequestError
from agentls.agent.launch.starting import RunHandle, start_run
from agentls.agent.launch.workbench import Workbench

__all__ = [
    "MAX_STEPS_LIMIT",
    "RunHandle",
    "RunRequest",
    "RunRequestError",
    "Workbench",
    "start_run",
]
