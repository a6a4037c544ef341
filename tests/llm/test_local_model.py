"""The real embedded 0.5B model through llama.cpp (marked `local_model`; skipped unless
llama-cpp-python imports and the 0.5B part packages are installed).

Asserts only what a tiny model reliably does under the grammar: its reply parses into one
call of an offered tool whose arguments validate against that tool's input schema.
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator

import pytest

from agentls.llm.base import PREFIX, ModelError
from agentls.llm.local import LocalModel, model_files
from agentls.llm.local.gbnf import check_grammar, schema_to_gbnf
from agentls.llm.local.grammar import tool_call_schema
from agentls.tools.registry import default_registry

MODEL = model_files.KNOWN_MODELS["0.5b"]
pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(
        importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
    ),
    pytest.mark.skipif(
        not model_files.is_installed(MODEL), reason="the 0.5B model parts are not installed"
    ),
]
REGISTRY = default_registry()


def specs(*names: str) -> list[dict]:
    tools = [REGISTRY.get(n) for n in names] if names else REGISTRY.list()
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description(),
                "parameters": t.Input.model_json_schema(),
            },
        }
        for t in tools
        if t is not None
    ]


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[LocalModel]:
    local = LocalModel(model=MODEL, n_threads=1, n_ctx=2048, max_tokens=256)
    yield local
    await local.aclose()


async def test_acting_turn_calls_an_offered_tool_with_valid_arguments(model: LocalModel) -> None:
    messages = [
        {
            "role": "system",
            "content": "You are a coding agent working in a repository. Use the tools.",
        },
        {"role": "user", "content": "Read the file notes.txt"},
    ]
    turn = await model.complete(messages, tools=specs("read_file", "finish"))
    assert len(turn.tool_calls) == 1, turn.content
    (call,) = turn.tool_calls
    assert call.name in {"read_file", "finish"}
    REGISTRY.get(call.name).Input.model_validate_json(call.arguments)  # type: ignore[union-attr]
    assert turn.usage.prompt_tokens > 0 and turn.usage.completion_tokens > 0


async def test_every_registry_tool_compiles_into_one_grammar(model: LocalModel) -> None:
    """A grammar llama.cpp refuses would crash the process; the whole registry must parse."""
    llama = model._loaded()
    check_grammar(schema_to_gbnf(tool_call_schema(specs())), llama._model.vocab)
    lines = {
        "type": "object",
        "properties": {
            "old": {"enum": ['return f"Hi {x}\\n"', "a\\b"]},
            "content": {"type": "string", PREFIX: 'from a import "b"\n\n\ndef test_', "maxLength": 200},
        },
    }
    check_grammar(schema_to_gbnf(lines), llama._model.vocab)  # choices quoting code
    with pytest.raises(ModelError, match="refused the grammar"):  # instead of a segfault
        check_grammar('root ::= "a" (', llama._model.vocab)
