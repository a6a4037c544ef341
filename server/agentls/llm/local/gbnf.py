"""JSON schema → llama.cpp GBNF grammar, checked before it reaches the sampler.

llama-cpp-python's own converter writes a string's `maxLength: N` as N nested optional
groups, which llama.cpp 0.3.36's grammar parser cannot take past ~1000 (it crashes the
process); and a grammar that fails to parse makes the sampler dereference NULL. So this
module (1) writes bounded strings with the `char{m,n}` repetition operator, which the
parser expands itself, (2) escapes backslashes in literals (enum values), which the
converter leaves bare, (3) writes a string with our `x-prefix` keyword as that literal
text followed by bounded free text, or — with `x-then` — by one line per listed text
(llm/base.py), and (4) parses every grammar once with llama.cpp before use,
turning a refusal into a ModelError instead of a segfault.
Must not know: the agent, tools, the OpenAI wire format. Imports llama_cpp lazily.
"""

from __future__ import annotations

import json
from typing import Any

from agentls.llm.base import PREFIX, THEN, ModelError
from agentls.llm.local.fenced import Fenced
from agentls.llm.local.grammar import MAX_STRING_LENGTH

_STRING_EXTRAS = {"pattern", "format", "enum", "const", PREFIX}
#: The longest line of a lines string (THEN).
LINE_CHARS = 160
_LITERAL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\r": "\\r", "\n": "\\n"}


def schema_to_gbnf(schema: dict[str, Any]) -> str:
    """The GBNF grammar of `schema` (a simplified schema, see grammar.simplify)."""
    converter = _converter()
    converter.visit(converter.resolve_refs(schema, "schema"), "")
    return str(converter.format_grammar())


#: A fenced block's body: whole lines, at least one not blank, none starting with a
#: backtick (a line that starts with one is the closing fence: the 1.5B wrote "``}" as
#: if closing a JSON string when backticks were allowed anywhere).
_FENCE_BODY = r'"\n"* fence-line ( fence-line | "\n" )*'
_FENCE_LINE = r'[^`\n] [^\n]* "\n"'


def fenced_grammar(calls: dict[str, Any] | None, fenced: dict[str, Fenced]) -> str:
    """The grammar of a reply that is either a JSON call held to `calls` (the tool-call
    schema of the tools without a code argument; None when all have one) or, for each
    fenced tool, its JSON call without the code argument followed by the code in a fence
    (fenced.py)."""
    converter = _converter()
    alternatives = []
    if calls is not None:
        alternatives.append(converter.visit(converter.resolve_refs(calls, "calls"), "json-call"))
    converter._add_rule("fence-line", _FENCE_LINE)
    body = converter._add_rule("fence-body", _FENCE_BODY)
    for i, f in enumerate(fenced.values()):
        args = converter.visit(converter.resolve_refs(f.arguments, f"args{i}"), f"fenced-args{i}")
        lit = converter._format_literal
        head = lit(f'{{"name": {json.dumps(f.tool)}, "arguments": ')
        rule = f'{head} {args} {lit("}" + chr(10) + "```")} [a-z]* {lit(chr(10))} {body} {lit("```")}'
        alternatives.append(converter._add_rule(f"fenced-call{i}", rule))
    converter._add_rule("root", " | ".join(alternatives))
    return str(converter.format_grammar())


def _converter() -> Any:
    """A schema-to-GBNF converter with our string rules (see the module docstring)."""
    from llama_cpp import llama_grammar as lg

    class _Converter(lg.SchemaConverter):  # type: ignore[misc, name-defined]
        def visit(self, schema: dict[str, Any], name: str) -> str:
            bounded = "maxLength" in schema or "minLength" in schema
            prefixed = PREFIX in schema
            if schema.get("type") != "string" or not (prefixed or bounded and not _STRING_EXTRAS & schema.keys()):
                return str(super().visit(schema, name))
            rule_name = name + "-" if name in lg.RESERVED_NAMES else name or "root"
            char = self._add_primitive("char", lg.PRIMITIVE_RULES["char"])
            if not prefixed:
                low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
                times = f"{{{low},{int(high)}}}" if high is not None else f"{{{low},}}"
                return str(self._add_rule(rule_name, f'"\\"" {char}{times} "\\"" space'))
            literal = self._json_literal(str(schema[PREFIX]))
            if THEN not in schema:
                room = max(0, int(schema.get("maxLength", MAX_STRING_LENGTH)) - len(schema[PREFIX]))
                return str(self._add_rule(rule_name, f'"\\"" {literal} {char}{{0,{room}}} "\\"" space'))
            # lines: the prefix, a line, each THEN text and a line, a newline; no newline
            # escapes inside a line
            line = self._add_rule("line-char", r'[^"\\\x7F\x00-\x1F] | "\\\""')
            body = f"{line}{{1,{LINE_CHARS}}}"
            rest = "".join(f" {self._json_literal(str(t))} {body}" for t in schema[THEN])
            newline = self._json_literal("\n")
            return str(self._add_rule(rule_name, f'"\\"" {literal} {body}{rest} {newline} "\\"" space'))

        def _json_literal(self, text: str) -> str:
            """The GBNF literal of `text` as it reads inside a JSON string."""
            return self._format_literal(json.dumps(text, ensure_ascii=False)[1:-1])

        def _format_literal(self, literal: str) -> str:
            # the library escapes quotes but not backslashes, so a JSON-escaped quote in
            # an enum value (a line of code: `f"Hello, {name}"`) ended the GBNF literal
            return '"' + "".join(_LITERAL_ESCAPES.get(c, c) for c in literal) + '"'

    return _Converter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)


def check_grammar(grammar: str, vocab: Any) -> None:
    """Parse `grammar` with llama.cpp (against `vocab`, the model's `llama_vocab *`);
    ModelError when it is refused. llama-cpp-python would hand the NULL on to the sampler
    chain and crash, so every grammar goes through here first."""
    import llama_cpp

    sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode(), b"root")
    if not sampler:
        raise ModelError(
            "llama.cpp refused the grammar built from the offered tools' schemas "
            "(its reason is on stderr); simplify those schemas"
        )
    llama_cpp.llama_sampler_free(sampler)


def compile_grammar(schema: dict[str, Any], llama: Any) -> Any:
    """A checked `LlamaGrammar` for `schema` — or, for a `{"gbnf": text}` made by
    fenced_grammar, for that text — for the model loaded in `llama`."""
    from llama_cpp import LlamaGrammar

    try:
        text = schema["gbnf"] if set(schema) == {"gbnf"} else schema_to_gbnf(schema)
    except (AssertionError, ValueError, KeyError, TypeError) as exc:  # the converter asserts
        raise ModelError(f"cannot turn the tool schemas into a grammar: {exc}") from None
    check_grammar(text, llama._model.vocab)  # the pointer llama-cpp-python passes on itself
    return LlamaGrammar.from_string(text, verbose=False)
