"""The JSON-RPC protocol of the server: pygls' LanguageServerProtocol behind a gate that
checks each message's envelope and the LSP 3.17 lifecycle, plus an answer to requests
whose params cannot be decoded, and plain-JSON params for `agent/*`.

`receive` takes one decoded JSON body from the framing (framing.py):
- a body that is not a JSON-RPC 2.0 message → -32600 Invalid Request (id null when the
  id itself is unusable); params that are neither object nor array → -32602;
- before `initialize`, a request → -32002 ServerNotInitialized, a notification is
  dropped; a second `initialize` → -32600, a second `initialized` is dropped;
- after `shutdown`, every request (a second `shutdown` too) → -32600, notifications are
  dropped; `exit` ends the process with 0 after `shutdown`, else 1 (`SystemExit`).
The same rules hold for `agent/*` and standard methods. pygls 2.1 serves requests before
`initialize` and never answers those after `shutdown`; its read loop turned nested
objects into messages (object_hook), which `receive` does not.

Params that cannot be decoded: pygls 2.1 logs such a request and sends nothing, so the
editor waits for its own timeout. Here the request gets -32602 Invalid Params, with the
decoding problem as the message, and the server goes on.
Failures are logged, never shown to the user (server.report_server_error).
Must not know: features.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Generator
from typing import Any
from urllib.parse import unquote

from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcMethodNotFound
from pygls.protocol import JsonRPCRequestMessage, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from agentls.lsp.framing import FramingError

log = logging.getLogger(__name__)
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002
_NO_ID = object()


class _Answered:
    """Stands for a request that was already answered with an error."""

    jsonrpc = "answered"


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def envelope_problem(data: Any) -> tuple[int, str, Any] | None:
    """(code, message, id to answer, or _NO_ID for none) when `data` is not a JSON-RPC
    2.0 message the server can take; None when it is."""
    if not isinstance(data, dict):
        return INVALID_REQUEST, f"a message must be a JSON object, got {type(data).__name__}", None
    has_id = "id" in data
    answer_to = data["id"] if has_id and _valid_id(data["id"]) else None
    if data.get("jsonrpc") != "2.0":
        return INVALID_REQUEST, "'jsonrpc' must be \"2.0\"", answer_to
    if "method" not in data:  # a response to one of our requests
        if not has_id or not (data["id"] is None or _valid_id(data["id"])) or ("result" in data) == ("error" in data):
            return INVALID_REQUEST, "a response needs an id and exactly one of result and error", _NO_ID
        return None
    method = data["method"]
    if not isinstance(method, str) or not method:
        return INVALID_REQUEST, "'method' must be a non-empty string", answer_to if has_id else _NO_ID
    if has_id and not _valid_id(data["id"]):
        return INVALID_REQUEST, f"{method}: 'id' must be an integer or a string", None
    params = data.get("params")
    if params is not None and not isinstance(params, dict | list):
        return INVALID_PARAMS, f"{method}: params must be an object or an array, got {type(params).__name__}", data["id"] if has_id else _NO_ID
    return None


def _detail(cause: BaseException) -> tuple[str, str | None]:
    """What is wrong with the params, field by field (cattrs names each culprit), and
    the first culprit's path in the params, camelCase as on the wire."""
    try:
        problems = transform_error(cause) if isinstance(cause, ClassValidationError) else [str(cause)]
    except Exception:
        problems = [str(cause)]
    where = problems[0].rpartition(" @ $.")[2] if problems and " @ $." in problems[0] else ""
    field = ".".join(_camel(p) for p in where.split(".")[1:]) if where.startswith("params.") else None
    return "; ".join(problems)[:1000], field or None


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class EncodedJson(str):
    """A result already encoded as JSON text, spliced into the response as is. pygls would
    unstructure it value by value through cattrs (a 32k-location answer: ~0.3 s); a large
    answer is encoded slice by slice while it is found, so the event loop is not held by
    one encode at the end (55 ms for 21k locations) while other requests wait."""


class AgentProtocol(LanguageServerProtocol):
    initialize_received = False
    initialized_received = False
    shutdown_received = False

    # --- the gate: envelope and lifecycle ----------------------------------------------
    def receive(self, data: Any) -> None:
        """One decoded JSON body: check it, then hand it to pygls. Never raises, except
        SystemExit on `exit`."""
        problem = envelope_problem(data)
        if problem is not None:
            code, message, answer_to = problem
            log.warning("refused message: %s", message)
            if answer_to is not _NO_ID:
                self.send_error(answer_to, code, message)
            return
        method = data.get("method")
        if method is not None and self._refused(method, data):
            return
        try:
            message = self.structure_message(data)
            if method == lsp.INITIALIZE and not isinstance(message, _Answered):
                self.initialize_received = True
            self.handle_message(message)
        except JsonRpcException as exc:
            log.warning("message %s not handled: %s", method, exc)
        except Exception:
            log.exception("message %s not handled", method)

    def reject(self, error: FramingError) -> None:
        """A body the framing could not take in: answered with id null."""
        self.send_error(None, error.code, str(error))

    def send_error(self, msg_id: Any, code: int, message: str) -> None:
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, EncodedJson):
            self._result_types.pop(msg_id, None)
            self._send_encoded(f'{{"jsonrpc": "2.0", "id": {json.dumps(msg_id)}, "result": {result}}}')
            return
        super()._send_response(msg_id, result=result, error=error)

    def _send_encoded(self, body: str) -> None:
        """A message body already encoded, framed and written as pygls' `_send_data` does."""
        if self.writer is None:
            log.error("unable to send a response: no transport")
            return
        data = body.encode("utf-8")
        header = f"Content-Length: {len(data)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n" if self._include_headers else ""
        try:
            res = self.writer.write(header.encode("ascii") + data)
            if inspect.isawaitable(res):
                asyncio.ensure_future(res)
        except BrokenPipeError:
            log.error("unable to send a response: the client closed the connection")

    def send_plain_notification(self, method: str, params: Any) -> None:
        """A notification whose params are already in wire form (partial results)."""
        self._send_data({"jsonrpc": "2.0", "method": method, "params": params})

    def _refused(self, method: str, data: dict[str, Any]) -> bool:
        """Apply the lifecycle; True when the message was answered or dropped here."""
        if method == lsp.EXIT:
            code = 0 if self.shutdown_received else 1
            log.info("exit after %s: exit code %d", "shutdown" if code == 0 else "no shutdown", code)
            raise SystemExit(code)
        is_request = "id" in data
        if self.shutdown_received:
            code, reason = INVALID_REQUEST, f"{method}: the server is shutting down (shutdown was received)"
        elif not self.initialize_received and method != lsp.INITIALIZE:
            code, reason = SERVER_NOT_INITIALIZED, f"{method}: the server is not initialized (initialize comes first)"
        elif self.initialize_received and method == lsp.INITIALIZE:
            code, reason = INVALID_REQUEST, "initialize: the server is already initialized (initialize is sent once)"
        elif method == lsp.INITIALIZED and self.initialized_received:
            code, reason = INVALID_REQUEST, "initialized: already received (it is sent once)"
        else:
            if method == lsp.SHUTDOWN and is_request:
                self.shutdown_received = True
            self.initialized_received |= method == lsp.INITIALIZED
            return False
        if is_request:
            self.send_error(data["id"], code, reason)
        else:
            log.info("dropped notification %s: %s", method, reason)
        return True

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        """pygls' didChange, except for a document never opened (pygls raises KeyError):
        the change is ignored and logged."""
        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents:
            log.warning("didChange for %s, which is not open: ignored", uri)
            return
        yield from super().lsp_text_document__did_change(params)

    # --- structuring --------------------------------------------------------------------
    def structure_message(self, data: dict[str, Any]) -> Any:
        method = data.get("method") if isinstance(data, dict) else None
        if isinstance(method, str) and "id" in data and not method.startswith("agent/"):
            try:  # an unknown method is MethodNotFound, whatever its params (pygls would
                self._get_handler(method)  # fail to structure them first: -32603)
            except JsonRpcMethodNotFound as exc:
                self._send_response(data["id"], error=exc.to_response_error())
                return _Answered()
        if isinstance(data, dict) and "id" in data and str(data.get("method", "")).startswith("agent/"):
            # agent/* params stay plain JSON: pygls would turn them into namedtuples, which
            # renames keys that are not identifiers (a tool's input may hold any key).
            return JsonRPCRequestMessage(id=data["id"], method=data["method"], jsonrpc=data.get("jsonrpc", "2.0"), params=data.get("params"))
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                error: JsonRpcException = exc
                if isinstance(exc, JsonRpcInvalidParams):
                    detail, field = _detail(exc.__cause__) if exc.__cause__ is not None else (exc.message, None)
                    # the same shape as agent/* errors (params.py): data.field names the culprit
                    error = JsonRpcInvalidParams(f"invalid params for {data['method']}: {detail}", data={"field": field} if field else None)
                self._send_response(data["id"], error=error.to_response_error())
                return _Answered()
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Answered):
            return
        super().handle_message(message)
