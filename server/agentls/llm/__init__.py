"""Model providers: an OpenAI-compatible endpoint (`openai:<model>`), the embedded local
model (`local`, `local:/path/model.gguf`), and recorded transcripts (`replay:<file>`).
`make_model(spec, settings)` in factory.py picks one. Must not know: the agent loop,
tools' internals, LSP.
"""
