"""The read loop of the server: LSP base-protocol framing (`Content-Length` headers, a
UTF-8 JSON body) that hostile input cannot crash, hang or flood.

It replaces pygls' `run_async`, which dies on an absurd `Content-Length` (OverflowError),
reads header lines without a bound, and hands any JSON to the protocol (nested objects
included, through `object_hook`). Here:
- a header line is at most `MAX_HEADER_LINE` bytes and a header block `MAX_HEADERS`
  lines; the body at most `MAX_MESSAGE` bytes (`Content-Length` must be 1-12 digits);
- a body that is not UTF-8, not JSON, or nested deeper than `MAX_DEPTH` is answered with
  a JSON-RPC error (id null: the id cannot be trusted) and the loop goes on;
- lone UTF-16 surrogates (`"\\ud800"`, legal JSON, not encodable text) become U+FFFD,
  one UTF-16 unit for one, so positions stay right and nothing downstream fails to encode;
- after broken framing (a bad header, an oversized message) the stream is
  resynchronised at the next `Content-Length:` header, never by trusting the length;
- the envelope checks and the lifecycle are the protocol's (`AgentProtocol.receive`).
Errors go to the log and to the client as responses, never to the user as pop-ups.
Must not know: features, the lifecycle.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from agentls.lsp.streams import CHUNK, LineReader

log = logging.getLogger(__name__)

MAX_HEADER_LINE = 8 * 1024
MAX_HEADERS = 32
MAX_MESSAGE = 16 * 1024 * 1024  # a 16 MiB didOpen+didChange peaks near 220 MB RSS (bench_lsp_hostile)
MAX_DEPTH = 128
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_LENGTH = b"content-length:"
_DIGITS = re.compile(rb"[0-9]{1,12}")
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_HEADER_NAME = re.compile(rb"[A-Za-z0-9-]+")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_DROP = bytes(b for b in range(256) if b not in b"[]{}")


class FramingError(Exception):
    """A message that cannot be taken in; answered with `code` and id null."""

    def __init__(self, message: str, code: int = PARSE_ERROR) -> None:
        super().__init__(message)
        self.code = code


def too_deep(body: bytes) -> bool:
    """Whether arrays and objects in a JSON text nest deeper than MAX_DEPTH (strings
    skipped), found without recursion; the common case is two counts in C."""
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for byte in _STRINGS.sub(b"", body).translate(None, _DROP):
        depth += 1 if byte in (0x5B, 0x7B) else -1
        if depth > MAX_DEPTH:
            return True
    return False


def decode(body: bytes) -> Any:
    """A body → JSON value, or FramingError (not UTF-8, not JSON, too deep)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FramingError(f"message body is not UTF-8: {exc.reason} at byte {exc.start}") from None
    if too_deep(body):
        raise FramingError(f"message nests deeper than {MAX_DEPTH} levels", INVALID_REQUEST)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise FramingError(f"message body is not JSON: {exc}") from None
    return scrub_surrogates(value) if _SURROGATE_ESCAPE.search(body) else value


def scrub_surrogates(value: Any) -> Any:
    """Lone surrogates in every string (keys too) → U+FFFD, in place, without recursion."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key in list(item):
                child = item.pop(key) if isinstance(key, str) and _SURROGATE.search(key) else item[key]
                key = _SURROGATE.sub("\ufffd", key)
                item[key] = _SURROGATE.sub("\ufffd", child) if isinstance(child, str) else child
                stack.append(child)
        elif isinstance(item, list):
            for i, child in enumerate(item):
                if isinstance(child, str):
                    item[i] = _SURROGATE.sub("\ufffd", child)
                else:
                    stack.append(child)
    return value


class Framer:
    """Reads framed messages; calls `on_message(value)` for each JSON body and
    `on_error(FramingError)` for each one that cannot be taken in."""

    def __init__(self, reader: LineReader, on_message: Callable[[Any], None], on_error: Callable[[FramingError], None]) -> None:
        self.reader = reader
        self.on_message = on_message
        self.on_error = on_error
        self._pending = b""  # a header line found inside garbage, read already

    async def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                body = await self._next_body()
            except EOFError:
                return
            except FramingError as exc:
                log.warning("framing: %s", exc)
                self.on_error(exc)
                await self._resync()
                continue
            try:
                value = decode(body)
            except FramingError as exc:
                log.warning("framing: %s", exc)
                self.on_error(exc)
                continue
            self.on_message(value)
            # a turn of the loop before the next message: the handler task this message
            # started takes its first step first (a didChangeConfiguration is applied
            # before a request that follows it in the same read is handled)
            await asyncio.sleep(0)

    async def _line(self) -> bytes:
        if self._pending:
            line, self._pending = self._pending, b""
            return line
        line = await self.reader.readline(MAX_HEADER_LINE + 1)
        if not line:
            raise EOFError
        return line

    async def _next_body(self) -> bytes:
        length: int | None = None
        count = 0
        while True:
            line = await self._line()
            if not line.strip():
                if count == 0:
                    continue  # stray blank lines between messages
                break
            count += 1
            if len(line) > MAX_HEADER_LINE or not line.endswith(b"\n"):
                raise FramingError(f"header line longer than {MAX_HEADER_LINE} bytes")
            if count > MAX_HEADERS:
                raise FramingError(f"more than {MAX_HEADERS} header lines")
            name, sep, value = line.partition(b":")
            if not sep or not _HEADER_NAME.fullmatch(name.strip()):
                self._pending = _from_length(line, skip_start=True)
                raise FramingError(f"not a header line: {line[:80]!r}")
            if name.strip().lower() == b"content-length":
                digits = value.strip()
                if not _DIGITS.fullmatch(digits):
                    raise FramingError(f"bad Content-Length {digits[:40]!r}")
                if length is not None and int(digits) != length:
                    raise FramingError("two different Content-Length headers")
                length = int(digits)
        if length is None:
            raise FramingError("header block without Content-Length")
        if length > MAX_MESSAGE:
            raise FramingError(f"message of {length} bytes exceeds the limit of {MAX_MESSAGE} bytes", INVALID_REQUEST)
        body = await self.reader.read(length) if length else b""
        if len(body) < length:
            raise EOFError
        return body

    async def _resync(self) -> None:
        """Skip input up to the next line that starts a header block (`Content-Length:`)."""
        if self._pending:
            return
        tail = b""
        while True:
            chunk = await self.reader.readline(CHUNK)
            if not chunk:
                return
            found = _from_length(tail + chunk, skip_start=False)
            if found:
                self._pending = found if found.endswith(b"\n") else found + await self.reader.readline(MAX_HEADER_LINE)
                return
            tail = chunk[-len(_LENGTH):] if not chunk.endswith(b"\n") else b""


def _from_length(data: bytes, *, skip_start: bool) -> bytes:
    """`data` from its `Content-Length:` on (b"" if none; with skip_start, not at 0)."""
    at = data.lower().find(_LENGTH, 1 if skip_start else 0)
    return data[at:] if at >= 0 else b""
