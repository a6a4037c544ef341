"""The agent layer (issue "Step 3"): Forge components and protocols, the task loop,
memory, budgets, cancellation and run events. It drives the tools and emits events; it
never talks to an editor. Must not know: pygls/lsprotocol.
"""
