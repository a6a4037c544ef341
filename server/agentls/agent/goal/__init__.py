"""Reading a goal, once per run: `read_goal(goal, facts, may_write)` → `GoalReading`
(reading.py), from its sentences' intent (intent.py), the names and files it mentions
(names.py), the values and rename it asks for (values.py) and the English it is written
in (words.py), over what the workspace holds (facts.py).
Must not know: the loop, models, LSP.
"""

from agentls.agent.goal.reading import Facts, GoalReading, Kind, is_test_file, read_goal

__all__ = ["Facts", "GoalReading", "Kind", "is_test_file", "read_goal"]
