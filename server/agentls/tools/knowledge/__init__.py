"""Knowledge tools: long-term memory (search_memory, save_memory) and documentation
retrieval (retrieve_spec, retrieve_design_doc).

Must not know: the agent, LSP, model providers.
"""

from agentls.tools.knowledge.memory import MemoryStore
from agentls.tools.knowledge.retrieve_design_doc import RetrieveDesignDoc
from agentls.tools.knowledge.retrieve_spec import RetrieveSpec
from agentls.tools.knowledge.save_memory import SaveMemory
from agentls.tools.knowledge.search_memory import SearchMemory

TOOLS = [SearchMemory, SaveMemory, RetrieveSpec, RetrieveDesignDoc]

__all__ = [
    "TOOLS",
    "MemoryStore",
    "RetrieveDesignDoc",
    "RetrieveSpec",
    "SaveMemory",
    "SearchMemory",
]
