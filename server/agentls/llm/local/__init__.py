"""The embedded model (`local`): model files from pinned part packages (model_files.py),
the constrained-output schema (grammar.py) and its GBNF (gbnf.py), the chat history as
plain text (prompt.py), and the llama-cpp-python provider (provider.py). Importing this
package never imports llama_cpp nor touches the model files.
"""

from agentls.llm.local.provider import LocalModel

__all__ = ["LocalModel"]
