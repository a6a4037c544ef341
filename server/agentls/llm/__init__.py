"""Model providers (issue "Step 3"): OpenAI-compatible endpoints, the embedded local
model, and replay of recorded transcripts. Must not know: tools' internals, LSP.
"""
