"""agentls: an autonomous software engineer that lives inside a language server."""

__version__ = "0.1.0"
