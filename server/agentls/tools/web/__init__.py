"""Web tools: web_search (a SearxNG-compatible endpoint) and web_fetch (a page as text).

Both need the `network` permission and go through the network policy (policy.py) and
the guarded client (transport.py, fetcher.py). Must not know: the agent, LSP.
"""

from agentls.tools.web.web_fetch import WebFetch
from agentls.tools.web.web_search import WebSearch

TOOLS = [WebSearch, WebFetch]

__all__ = ["TOOLS", "WebFetch", "WebSearch"]
