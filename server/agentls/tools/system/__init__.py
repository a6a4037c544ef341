"""System tools: the run's own controls."""

from agentls.tools.system.finish import Finish

TOOLS = [Finish]

__all__ = ["TOOLS", "Finish"]
