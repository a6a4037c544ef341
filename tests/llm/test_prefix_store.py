"""Kept prompt states (llm/local/prefix_store.py) with the real embedded 0.5B through
llama.cpp: a new process's first turn evaluates only what its prompt does not share with a
kept one, and answers exactly as without the store; a torn state is never served.
(Marked `local_model`; skipped unless llama-cpp-python and the 0.5B parts are installed.)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from agentls.llm.local import LocalModel, model_files, prefix_store

MODEL = model_files.KNOWN_MODELS["0.5b"]
pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"),
    pytest.mark.skipif(not model_files.is_installed(MODEL), reason="the 0.5B model parts are not installed"),
]

SYSTEM = "You answer questions about this project's files.\n" + "".join(
    f"- module_{i}.py defines function_{i}(x) returning x * {i}.\n" for i in range(22)
)


def messages(question: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]


async def turn(question: str) -> tuple[str, int, int]:
    """A fresh model (as in a new process): its reply, the prompt tokens llama.cpp
    evaluated for it, and the tokens in its context after the prompt."""
    model = LocalModel(model=MODEL, n_threads=1, n_ctx=2048, max_tokens=12)
    llama = model._loaded()
    evaluated: list[int] = []
    real_eval = llama.eval

    def counting(tokens: Any) -> None:
        if not evaluated:  # the prompt's evaluation comes first, then one token at a time
            evaluated.append(len(tokens))
        real_eval(tokens)

    llama.eval = counting
    try:
        reply = await model.complete(messages(question))
    finally:
        await model.aclose()
    return reply.content or "", evaluated[0], reply.usage.prompt_tokens


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(prefix_store.ENV, raising=False)
    return tmp_path / "agentls" / "prefixes"


async def test_a_new_process_evaluates_only_what_follows_the_kept_prefix(cache: Path) -> None:
    await turn("What does function_3 return?")
    assert len(list(cache.glob("*/*.state"))) == 1
    reply, evaluated, prompt = await turn("What does function_7 return?")
    assert evaluated < prompt / 4, (evaluated, prompt)  # the ~400-token system message was kept

    # the same answer as a model that evaluated everything
    for state in cache.glob("*/*"):
        state.unlink()
    cold_reply, cold_evaluated, _ = await turn("What does function_7 return?")
    assert cold_evaluated >= prompt - 1
    assert reply == cold_reply


async def test_a_torn_state_is_deleted_and_never_served(cache: Path) -> None:
    await turn("What does function_3 return?")
    (state,) = cache.glob("*/*.state")
    state.write_bytes(state.read_bytes()[: state.stat().st_size // 3])
    reply, evaluated, prompt = await turn("What does function_7 return?")
    assert evaluated >= prompt - 1  # evaluated from scratch
    assert reply
    (kept,) = cache.glob("*/*.state")  # the torn one went; this turn's state was kept
    assert kept != state
    assert not list(cache.glob("*/.*.tmp"))


async def test_the_store_can_be_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(prefix_store.ENV, "0")
    await turn("What does function_3 return?")
    assert not cache.exists()


async def test_at_most_max_entries_are_kept(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prefix_store, "MAX_ENTRIES", 2)
    for i in range(3):  # prompts that share less than 90 % with each other: each is kept
        await turn(f"Question {i}: what does function_{i} return? " + f"Context {i}: " * 60)
    assert len(list(cache.glob("*/*.state"))) == 2
    assert len(list(cache.glob("*/*.json"))) == 2


async def test_a_new_run_in_the_same_process_starts_from_the_kept_prefix(cache: Path) -> None:
    """A server: run 1's last turn left another prompt in the context (other tools in its
    system message); run 2's first turn restores run 1's first state instead."""
    model = LocalModel(model=MODEL, n_threads=1, n_ctx=2048, max_tokens=12)
    llama = model._loaded()
    evaluated: list[int] = []
    real_eval = llama.eval

    def counting(tokens: Any) -> None:
        if len(tokens) > 1:  # a prompt's evaluation (generation goes one token at a time)
            evaluated.append(len(tokens))
        real_eval(tokens)

    llama.eval = counting
    try:
        await model.complete(messages("What does function_3 return?"))  # run 1, first turn
        other = [{"role": "system", "content": "Only finish now. " + SYSTEM[::-1]}, {"role": "user", "content": "Done?"}]
        await model.complete(other)  # run 1, last turn: little in common with the first
        reply = await model.complete(messages("What does function_7 return?"))  # run 2, first turn
    finally:
        await model.aclose()
    assert reply.content
    assert evaluated[-1] < reply.usage.prompt_tokens / 4, (evaluated, reply.usage.prompt_tokens)
