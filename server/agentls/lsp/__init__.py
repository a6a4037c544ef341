"""The LSP surface: the pygls server, document sync, standard features from the index,
and (later) the `agent/*` methods. The only layer that imports pygls and lsprotocol.

Architecture Invariant: handlers are glue — get the document, call one function of a
lower layer, convert, return. No analysis or agent logic lives here.
"""
