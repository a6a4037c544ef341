"""The read loop (agentls.lsp.framing) on in-memory streams: each hostile input is
answered with one error and the good message after it still gets through."""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
import time
from typing import Any

import pytest

from agentls.lsp import framing, streams
from agentls.lsp.framing import (
    MAX_DEPTH,
    MAX_HEADER_LINE,
    MAX_MESSAGE,
    Framer,
    FramingError,
    decode,
    scrub_surrogates,
    too_deep,
)

GOOD = {"jsonrpc": "2.0", "id": "good", "method": "agent/tools", "params": {}}


def frame(body: bytes, headers: bytes = b"") -> bytes:
    return headers + b"Content-Length: %d\r\n\r\n" % len(body) + body


class BytesReader:
    def __init__(self, data: bytes) -> None:
        self.stream = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]

    async def readline(self, limit: int) -> bytes:
        return self.stream.readline(limit)

    async def read(self, n: int) -> bytes:
        return self.stream.read(n)


def run(data: bytes) -> tuple[list[Any], list[FramingError]]:
    messages: list[Any] = []
    errors: list[FramingError] = []
    asyncio.run(Framer(BytesReader(data), messages.append, errors.append).run(threading.Event()))
    return messages, errors


GOOD_FRAME = frame(json.dumps(GOOD).encode())

HOSTILE = {
    "absurd Content-Length (20 digits)": (b"Content-Length: 99999999999999999999\r\n\r\n{}", "bad Content-Length"),
    "negative Content-Length": (b"Content-Length: -5\r\n\r\n{}", "bad Content-Length"),
    "Content-Length not a number": (b"Content-Length: ten\r\n\r\n{}", "bad Content-Length"),
    "oversized message": (b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE + 1) + b"x" * 5000 + b"\r\n", "exceeds the limit"),
    "two different lengths": (b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two different"),
    "no Content-Length": (b"Content-Type: application/json\r\n\r\n{}", "without Content-Length"),
    "garbage line": (b"hello world\r\n\r\n", "not a header line"),
    "unframed JSON": (json.dumps(GOOD).encode() + b"\r\n", "not a header line"),
    "header line too long": (b"X-Long: " + b"a" * (MAX_HEADER_LINE + 10) + b"\r\n\r\n", "longer than"),
    "too many headers": (b"".join(b"X-%d: 1\r\n" % i for i in range(40)), "more than"),
    "body not UTF-8": (frame(b'{"a": "\xff\xfe"}'), "not UTF-8"),
    "body not JSON": (frame(b"{nope"), "not JSON"),
    "body nests too deep": (frame(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)), "deeper than"),
    "body nests beyond the recursion limit": (frame(b"[" * 100_000 + b"]" * 100_000), "deeper than"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_gives_one_error_then_the_stream_goes_on(name: str) -> None:
    data, expected = HOSTILE[name]
    messages, errors = run(data + GOOD_FRAME)
    assert messages == [GOOD]
    assert len(errors) == 1 and expected in str(errors[0])


def test_a_header_glued_to_garbage_is_found_again() -> None:
    messages, errors = run(b"junk without newline " + GOOD_FRAME)
    assert messages == [GOOD] and len(errors) == 1


def test_a_body_shorter_than_announced_costs_only_itself() -> None:
    # the announced length swallows the next header: one error, then resync at the third
    lying = b"Content-Length: 40\r\n\r\n{}"
    messages, errors = run(lying + GOOD_FRAME + GOOD_FRAME)
    assert messages == [GOOD] and len(errors) >= 1


def test_well_formed_traffic_passes_untouched() -> None:
    bodies = [GOOD, {"jsonrpc": "2.0", "method": "x", "params": [1, "ü", {"k": None}]}, {"jsonrpc": "2.0", "id": 1, "result": None}]
    data = b"".join(frame(json.dumps(b).encode(), b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n") for b in bodies)
    assert run(b"\r\n" + data) == (bodies, [])


def test_end_of_input_inside_a_body_ends_the_loop_quietly() -> None:
    assert run(b"Content-Length: 100\r\n\r\n{") == ([], [])


def test_depth_is_measured_outside_strings() -> None:
    assert not too_deep(json.dumps({"text": "[" * 10_000}).encode())
    assert too_deep(b"[" * (MAX_DEPTH + 1))
    assert not too_deep(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)


def test_lone_surrogates_become_replacement_characters() -> None:
    value = decode(b'{"a\\ud800": ["x\\udc00y", {"k": "\\ud83d\\ude00"}]}')
    assert value == {"a\ufffd": ["x\ufffdy", {"k": "\U0001f600"}]}
    json.dumps(value).encode("utf-8")  # encodable everywhere downstream
    deep: Any = "\ud800"
    for _ in range(5000):
        deep = [deep]
    scrub_surrogates(deep)  # no recursion on depth
    for _ in range(5000):
        deep = deep[0]
    assert deep == "\ufffd"


def test_decode_errors_carry_json_rpc_codes() -> None:
    with pytest.raises(FramingError) as not_json:
        decode(b"{")
    with pytest.raises(FramingError) as too_deep_error:
        decode(b"[" * 1000 + b"]" * 1000)
    assert (not_json.value.code, too_deep_error.value.code) == (framing.PARSE_ERROR, framing.INVALID_REQUEST)


def _pipe_run(data: bytes, pieces: int = 1) -> tuple[list[Any], list[FramingError]]:
    """`run` through the server's StdinReader on a real pipe, the data written in `pieces`."""
    r, w = os.pipe()

    def write() -> None:
        step = max(1, len(data) // pieces)
        with os.fdopen(w, "wb", buffering=0) as out:
            for i in range(0, len(data), step):
                out.write(data[i : i + step])
                time.sleep(0.001)

    writer = threading.Thread(target=write)
    writer.start()
    messages: list[Any] = []
    errors: list[FramingError] = []
    with os.fdopen(r, "rb") as stream:
        asyncio.run(Framer(streams.StdinReader(stream), messages.append, errors.append).run(threading.Event()))
    writer.join()
    return messages, errors


@pytest.mark.parametrize("pieces", [1, 7])
def test_the_stdin_reader_frames_like_a_plain_stream(pieces: int) -> None:
    """Every case above, through the read-ahead buffer on a pipe (whole, and in pieces
    that split header lines and bodies): the same messages and the same errors."""
    cases = [data + GOOD_FRAME for data, _ in HOSTILE.values()]
    cases += [b"junk without newline " + GOOD_FRAME, b"Content-Length: 40\r\n\r\n{}" + GOOD_FRAME + GOOD_FRAME, b"Content-Length: 100\r\n\r\n{"]
    for data in cases:
        want_messages, want_errors = run(data)
        got_messages, got_errors = _pipe_run(data, pieces)
        assert got_messages == want_messages, data[:60]
        assert [str(e) for e in got_errors] == [str(e) for e in want_errors], data[:60]


def test_the_stdin_reader_reads_ahead_a_bounded_amount() -> None:
    """A client that writes far more than the server reads is not read into memory: the
    thread stops once the buffer holds READ_AHEAD bytes (plus one chunk)."""
    r, w = os.pipe()
    os.set_blocking(w, False)
    reader = streams.StdinReader(os.fdopen(r, "rb"))
    flood = GOOD_FRAME * (8 * streams.StdinReader.READ_AHEAD // len(GOOD_FRAME))
    written = 0

    async def main() -> bytes:
        nonlocal written
        written = os.write(w, flood[:4096])
        first = await reader.readline(MAX_HEADER_LINE)  # starts the thread
        for _ in range(400):
            try:
                written += os.write(w, flood[written:])
            except BlockingIOError:
                await asyncio.sleep(0.005)
            if written >= len(flood):
                break
        return first

    first = asyncio.run(main())
    assert first.startswith(b"Content-Length")
    assert written < len(flood), "the pipe took the whole flood: nothing was held back"
    assert len(reader._buf) <= streams.StdinReader.READ_AHEAD + streams.CHUNK
    os.close(w)
