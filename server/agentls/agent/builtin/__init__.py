"""The built-in components, one per file: system directives and `finish`, the tools as
commands, the project's rules files, short-term history, long-term memory, the editor
context, the goal's @-mentions, the session's earlier runs, grounding (repo map and
named files), the watchdog, the budgets and the done check. The Agent creates them for each run (agent.py).
Must not know: the loop's internals, LSP.
"""

from __future__ import annotations

from agentls.agent.builtin.budgets import BudgetsComponent
from agentls.agent.builtin.conversation import ConversationComponent
from agentls.agent.builtin.done_check import DoneCheckComponent
from agentls.agent.builtin.editor_context import EditorContextComponent
from agentls.agent.builtin.grounding import GroundingComponent
from agentls.agent.builtin.history import HistoryComponent
from agentls.agent.builtin.memory import MemoryComponent
from agentls.agent.builtin.system import SystemComponent
from agentls.agent.builtin.tools import ToolsComponent, tool_command
from agentls.agent.builtin.watchdog import WatchdogComponent

__all__ = [
    "BudgetsComponent",
    "ConversationComponent",
    "DoneCheckComponent",
    "EditorContextComponent",
    "GroundingComponent",
    "HistoryComponent",
    "MemoryComponent",
    "SystemComponent",
    "ToolsComponent",
    "WatchdogComponent",
    "tool_command",
]
