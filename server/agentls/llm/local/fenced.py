"""Code arguments in fenced blocks, for a local model whose output a grammar holds.

A small model writes code better in a fenced block than escaped inside a JSON string
(Aider's "whole" edit format; measured for the embedded models by
tests/bench/bench_code_format.py, which picks the default). With the `fenced` code
format, a call of a tool that has a required code argument (llm/base.py CODE: write_file's
`content`, replace_symbol's and insert_symbol's `new`) is written as

    {"name": "write_file", "arguments": {"path": "calc.py"}}
    ```python
    <the code>
    ```

The grammar holds the reply to that shape (gbnf.fenced_grammar), `read()` puts the block
back into the arguments, and the history shows the model's earlier calls the same way
(`call_text`), so what it sees and what it may write agree. Tools without a code argument
stay JSON calls.
Must not know: llama.cpp, the agent, tools' classes (it sees OpenAI `tools` dicts).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agentls.llm.base import CODE, ToolSpec

FENCE = "```"
_LANGS = {"py": "python", "pyi": "python", "ts": "typescript", "tsx": "tsx", "js": "javascript",
          "jsx": "jsx", "mjs": "javascript", "json": "json", "md": "markdown", "toml": "toml",
          "yaml": "yaml", "yml": "yaml", "sh": "sh", "go": "go", "rs": "rust"}  # fmt: skip


_LANG_NAMES = frozenset([*_LANGS, *_LANGS.values()])


@dataclass(frozen=True, slots=True)
class Fenced:
    """A tool whose code argument `field` is written in a fenced block."""

    tool: str
    field: str
    arguments: dict[str, Any]  # its arguments' schema without `field`


def fenced_tools(tools: list[ToolSpec]) -> dict[str, Fenced]:
    """The offered tools with a required string argument marked as code, by name."""
    out: dict[str, Fenced] = {}
    for tool in tools:
        fn = tool["function"]
        params = fn.get("parameters") or {}
        props = params.get("properties") or {}
        required = params.get("required") or []
        field = next((k for k in required if isinstance(props.get(k), dict) and props[k].get(CODE)), None)
        if field is None or "anyOf" in params:
            continue  # (a guided tool's argument branches stay JSON)
        rest = {k: v for k, v in props.items() if k != field}
        args = {**params, "properties": rest, "required": [k for k in required if k != field]}
        out[fn["name"]] = Fenced(fn["name"], field, args)
    return out


def lang_of(arguments: dict[str, Any]) -> str:
    """The fence's language tag, from the `path` argument's suffix ("" when unknown)."""
    path = str(arguments.get("path") or "")
    return _LANGS.get(path.rsplit(".", 1)[-1].lower(), "") if "." in path else "python"


def call_text(name: str, arguments: dict[str, Any], field: str | None) -> str:
    """A call as the model writes it: JSON, and the code argument in a fence after it."""
    if field is None or not isinstance(arguments.get(field), str):
        return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    rest = {k: v for k, v in arguments.items() if k != field}
    code = arguments[field]
    head = json.dumps({"name": name, "arguments": rest}, ensure_ascii=False)
    return f"{head}\n{FENCE}{lang_of(arguments)}\n{code}{'' if code.endswith(chr(10)) else chr(10)}{FENCE}"


def read(text: str, fenced: dict[str, Fenced]) -> tuple[str, dict[str, Any]] | None:
    """(tool name, arguments with the code put back) of a fenced reply, or None when the
    reply is not one (a plain JSON call, or cut before its fence closed)."""
    head, sep, rest = text.partition("\n" + FENCE)
    if not sep:
        return None
    try:
        call = json.loads(head, strict=False)
    except ValueError:
        return None
    if not isinstance(call, dict) or call.get("name") not in fenced:
        return None
    lang, _, body = rest.partition("\n")
    if not lang.strip() and body.split("\n", 1)[0].strip() in _LANG_NAMES:
        body = body.split("\n", 1)[1] if "\n" in body else ""  # "```\npython\n…": the tag a line late
    end = body.rfind(FENCE)
    if end < 0:
        return None
    given = call.get("arguments")
    arguments: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
    arguments[fenced[call["name"]].field] = body[:end]
    return str(call["name"]), arguments


def prompt_note(fenced: dict[str, Fenced]) -> str:
    """The reply format's line for the fenced tools (empty when there are none)."""
    if not fenced:
        return ""
    names = ", ".join(f"{f.tool} ({f.field})" for f in fenced.values())
    return (
        f"For {names}: write the JSON call without that argument, then on the next lines the "
        f"code itself in a fenced block ({FENCE}python … {FENCE}), whole and unescaped."
    )
