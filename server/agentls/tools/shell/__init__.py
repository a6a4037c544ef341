"""Shell tools: run_command, run_test_suite, install_dependencies. All need shellExecution
and run their processes through the sandbox (agentls.tools.sandbox).

Must not know: the agent, LSP, model providers.
"""

from agentls.tools.shell.install_dependencies import InstallDependencies
from agentls.tools.shell.run_command import RunCommand
from agentls.tools.shell.run_test_suite import RunTestSuite

TOOLS = [RunCommand, RunTestSuite, InstallDependencies]

__all__ = ["TOOLS", "InstallDependencies", "RunCommand", "RunTestSuite"]
