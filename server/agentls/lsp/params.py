"""Params of the custom `agent/*` requests: plain data in, structured JSON-RPC errors out.

pygls hands custom params over as namedtuple-like objects (nested, keys that are not
identifiers renamed); `plain()` turns them back into dicts and lists. The readers below
check one field each and raise `AgentRequestError` (JSON-RPC -32602 Invalid Params, with
`data.field` naming the culprit), so a handler never answers bad input with a crash.
`request_failed` is for well-formed requests the server cannot serve (LSP -32803).
Must not know: what the requests do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

REQUEST_FAILED = -32803  # LSPErrorCodes.RequestFailed


class AgentRequestError(JsonRpcInvalidParams):
    """A bad `agent/*` request; raising it from a handler answers with -32602."""

    def __init__(self, message: str, field: str | None = None, **data: Any) -> None:
        details: dict[str, Any] = {"field": field} if field else {}
        details.update(data)
        super().__init__(message, data=details or None)
        self.field = field


def request_failed(message: str, **data: Any) -> JsonRpcException:
    """A well-formed request the server cannot serve now (e.g. no workspace folder)."""
    return JsonRpcException(message, code=REQUEST_FAILED, data=data or None)


def plain(value: Any) -> Any:
    """namedtuple-like objects → dicts, recursively; everything else as is."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def fields(params: Any, method: str) -> dict[str, Any]:
    """The request's params as a dict ({} for none)."""
    data = plain(params)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise AgentRequestError(f"{method}: params must be an object, got {type(data).__name__}")
    return data


def text(data: dict[str, Any], name: str, method: str, *, required: bool = False) -> str | None:
    value = data.get(name)
    if value is None:
        if required:
            raise AgentRequestError(f"{method}: '{name}' is required", name)
        return None
    if not isinstance(value, str):
        raise AgentRequestError(
            f"{method}: '{name}' must be a string, got {type(value).__name__}", name
        )
    if required and not value.strip():
        raise AgentRequestError(f"{method}: '{name}' must not be empty", name)
    return value


def choice(
    data: dict[str, Any], name: str, options: Iterable[str], method: str, *, required: bool = False
) -> str | None:
    value = text(data, name, method, required=required)
    allowed = list(options)
    if value is not None and value not in allowed:
        raise AgentRequestError(
            f"{method}: unknown {name} {value!r}; expected one of {', '.join(allowed)}",
            name,
            allowed=allowed,
        )
    return value


def integer(data: dict[str, Any], name: str, method: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise AgentRequestError(f"{method}: '{name}' must be an integer, got {value!r}", name)
    return value


def position(value: Any, where: str, method: str) -> tuple[int, int]:
    if not isinstance(value, dict):
        raise AgentRequestError(f"{method}: '{where}' must be a position object", where)
    line, char = value.get("line"), value.get("character")
    if (
        not isinstance(line, int)
        or not isinstance(char, int)
        or not _count(line)
        or not _count(char)
    ):
        raise AgentRequestError(
            f"{method}: '{where}' needs non-negative integer 'line' and 'character'", where
        )
    return line, char


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def lsp_range(value: Any, where: str, method: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """An LSP Range object → ((line, char), (line, char))."""
    if not isinstance(value, dict):
        raise AgentRequestError(f"{method}: '{where}' must be a range object", where)
    start = position(value.get("start"), f"{where}.start", method)
    end = position(value.get("end"), f"{where}.end", method)
    if end < start:
        raise AgentRequestError(f"{method}: '{where}' ends before it starts", where)
    return start, end


#: Diagnostics of an `agent/run` context kept for the model (the rest are dropped).
MAX_CONTEXT_DIAGNOSTICS = 10


def diagnostic_lines(value: Any, where: str, method: str) -> tuple[str, ...]:
    """LSP Diagnostics (`[{range, message, source?}]`) → one line each for the model:
    `line 4 (0-based 3:8–4:16), agentls: syntax error near 'if x'`."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise AgentRequestError(f"{method}: '{where}' must be a list of diagnostics", where)
    out = []
    for i, item in enumerate(value[:MAX_CONTEXT_DIAGNOSTICS]):
        field = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise AgentRequestError(f"{method}: '{field}' must be a diagnostic object", field)
        (l1, c1), (l2, c2) = lsp_range(item.get("range"), f"{field}.range", method)
        message = text(item, "message", f"{method} {field}", required=True) or ""
        source = text(item, "source", f"{method} {field}")
        where_ = f"line {l1 + 1}" if l1 == l2 else f"lines {l1 + 1}–{l2 + 1}"
        out.append(f"{where_} (0-based {l1}:{c1}–{l2}:{c2}), {source or 'the editor'}: {message}")
    return tuple(out)
