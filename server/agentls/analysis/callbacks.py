"""The type of a callback's untyped parameter, from what the callee declares: in
`operate((source, subscriber) => …)` with `function operate(init: (s: Observable<T>,
sub: Subscriber<R>) => void)`, `subscriber` is a Subscriber. The hint on the parameter
reads `callee(@k.j)` (`new Callee(@k.j)` for a constructor): parameter j of the function
passed as argument k. Must not know: tree-sitter, LSP.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

from agentls.analysis.keys import Key, Value
from agentls.analysis.model import FUNCTION, FileIndex, Symbol

if TYPE_CHECKING:
    from agentls.analysis.view import IndexView

_HINT = re.compile(r"^(new )?(.+)\(@(\d+)\.(\d+)\)$")
_ARGUMENT = re.compile(r"^(new )?(.+)\(@(\d+)\)$")  # an object literal's keys: `callee(@k)`
_PARAMETERS = ("parameter", "property")


class Evaluator(Protocol):
    """What this module asks of the evaluator it is given (values.Values, the resolver)."""

    @property
    def state(self) -> IndexView: ...

    def eval_dotted(self, path: str, text: str, offset: int, depth: int = 0) -> Value | None: ...

    def member(self, value: Value, name: str, depth: int = 0, seen: set[tuple[str, int]] | None = None) -> Key | None: ...


def is_callback_hint(value: str) -> bool:
    return value.endswith(")") and "(@" in value


def _function_scope(fi: FileIndex, symbol: int, start: int, end: int) -> int:
    """The function scope a symbol opens, or the first one between start and end."""
    for i, s in enumerate(fi.scopes):
        if s.kind == FUNCTION and (s.owner == symbol if symbol >= 0 else start <= s.start < end):
            return i
    return -1


def _parameters(fi: FileIndex, scope: int) -> list[Symbol]:
    seen: set[int] = set()
    out = []
    for sym in fi.symbols:
        if sym.scope == scope and sym.kind in _PARAMETERS and sym.sel_start not in seen:
            seen.add(sym.sel_start)
            out.append(sym)
    out.sort(key=lambda s: s.sel_start)
    return out


def _callee(values: Evaluator, path: str, text: str, new: bool, offset: int, depth: int) -> Value | None:
    """The function (or constructor) a call or `new` names."""
    value = values.eval_dotted(path, text, offset, depth + 1)
    if value is None:
        return None
    if new:
        if value.kind != "class":
            return None
        key = values.member(value, "constructor", depth + 1)
        if key is None:
            return None
        fi = values.state.files[key.path]
        for i in values.state.bindings(key.path).get((key.scope, key.name), []):
            if fi.symbols[i].kind == "method":
                return Value("function", key.path, i)
        return None
    return value if value.kind == "function" else None


def callback_parameter(values: Evaluator, path: str, sym: Symbol, depth: int) -> Value | None:
    """What the hinted callback parameter `sym` (declared in `path`) holds, if declared."""
    m = _HINT.match(sym.value)
    if m is None:
        return None
    fn = _callee(values, path, m.group(2), bool(m.group(1)), sym.sel_start, depth)
    if fn is None:
        return None
    fi = values.state.files[fn.path]
    params = _parameters(fi, _function_scope(fi, fn.symbol, 0, 0))
    k, j = int(m.group(3)), int(m.group(4))
    if k >= len(params):
        return None
    param = params[k]  # its type is a function type, a scope of its own
    inner = _parameters(fi, _function_scope(fi, -1, param.sel_end, param.end))
    if j >= len(inner) or not inner[j].value:
        return None
    target = inner[j]
    v = values.eval_dotted(fn.path, target.value, target.sel_start, depth + 1)
    return Value("instance", v.path, v.symbol) if v is not None and v.kind in ("class", "instance") else None


def argument_value(values: Evaluator, path: str, text: str, offset: int, depth: int = 0) -> Value | None:
    """What an object literal passed as argument k is (`callee(@k)`, occurrences.py): an
    instance of the type the callee declares for that parameter, if it declares one."""
    m = _ARGUMENT.match(text)
    if m is None:
        return None
    fn = _callee(values, path, m.group(2), bool(m.group(1)), offset, depth)
    if fn is None:
        return None
    fi = values.state.files[fn.path]
    params = _parameters(fi, _function_scope(fi, fn.symbol, 0, 0))
    k = int(m.group(3))
    if k >= len(params) or not params[k].value or is_callback_hint(params[k].value):
        return None
    v = values.eval_dotted(fn.path, params[k].value, params[k].sel_start, depth + 1)
    return Value("instance", v.path, v.symbol) if v is not None and v.kind in ("class", "instance") else None
