"""The JSON-RPC protocol of the server: pygls' LanguageServerProtocol, plus an answer
to requests whose params cannot be decoded, and plain-JSON params for `agent/*`.

pygls 2.1 logs such a request and sends nothing, so the editor waits for its own
timeout. Here the request gets a JSON-RPC error (-32602 Invalid Params, with the
decoding problem as the message) and the server goes on.
Must not know: features.
"""

from __future__ import annotations

import logging
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import JsonRPCRequestMessage, LanguageServerProtocol

log = logging.getLogger(__name__)


class _Answered:
    """Stands for a request that was already answered with an error."""

    jsonrpc = "answered"


class AgentProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
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
                    detail = str(exc.__cause__) if exc.__cause__ is not None else exc.message
                    error = JsonRpcInvalidParams(f"invalid params for {data['method']}: {detail}")
                self._send_response(data["id"], error=error.to_response_error())
                return _Answered()
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Answered):
            return
        super().handle_message(message)
