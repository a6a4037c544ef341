"""Where the read loop's bytes come from (framing.py frames them): stdin through a
read-ahead buffer a daemon thread fills, or an asyncio stream (TCP), both with the bounded
`readline(limit)` / `read(n)` the framer asks for.
Must not know: framing, JSON-RPC, LSP.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import BinaryIO, Protocol

log = logging.getLogger(__name__)

CHUNK = 64 * 1024


class LineReader(Protocol):
    async def readline(self, limit: int) -> bytes: ...

    async def read(self, n: int) -> bytes: ...


class StdinReader:
    """Reads of a binary stream through a buffer that one daemon thread fills with
    whatever has arrived (so a read that never returns cannot keep the process alive after
    `exit`). A message that arrived whole is taken from the buffer at once: asking the
    thread for each header line and then the body cost an event-loop turn apiece, and
    while a large search runs a turn is one of its slices — a definition asked meanwhile
    waited ~120 ms for its five turns. The thread reads ahead at most `READ_AHEAD` bytes
    (or what the pending read needs), so a flooding client is not read into memory."""

    READ_AHEAD = 1024 * 1024

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self._buf = bytearray()
        self._eof = False
        self._want = 0  # what the pending read needs in the buffer
        self._lock = threading.Lock()
        self._room = threading.Event()  # the thread may read more
        self._room.set()
        self._waiter: asyncio.Future[bytes] | None = None
        self._thread: threading.Thread | None = None

    async def readline(self, limit: int) -> bytes:
        def line(buf: bytearray) -> int | None:
            end = buf.find(b"\n", 0, limit)
            return end + 1 if end >= 0 else (limit if len(buf) >= limit else None)

        return await self._take(line, limit)

    async def read(self, n: int) -> bytes:
        return await self._take(lambda buf: n if len(buf) >= n else None, n)

    async def _take(self, size: Callable[[bytearray], int | None], want: int) -> bytes:
        """The first `size(buffer)` bytes once there are enough (or what is left at EOF)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, args=(asyncio.get_running_loop(),), name="agentls-stdin", daemon=True)
            self._thread.start()
        while True:
            with self._lock:
                k = size(self._buf)
                if k is None and self._eof:
                    k = len(self._buf)
                if k is not None:
                    out = bytes(self._buf[:k])
                    del self._buf[:k]
                    self._want = 0
                    self._room.set()
                    return out
                waiter = self._waiter = asyncio.get_running_loop().create_future()
                self._want = want
                self._room.set()
            await waiter

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        # the raw file under a buffered stream: a read blocked in the buffered one holds its
        # lock, which the interpreter takes at exit (a fatal error instead of the exit code)
        raw = getattr(self.stream, "raw", None)
        read = raw.read if raw is not None else getattr(self.stream, "read1", self.stream.read)
        while True:
            self._room.wait()
            try:
                data = read(CHUNK)
            except Exception as exc:  # a closed or broken stream ends the loop as EOF
                log.info("stdin read failed: %s", exc)
                data = b""
            with self._lock:
                if data:
                    self._buf += data
                    if len(self._buf) >= max(self.READ_AHEAD, self._want):
                        self._room.clear()
                else:
                    self._eof = True
                waiter, self._waiter = self._waiter, None
            if waiter is not None:
                loop.call_soon_threadsafe(_wake, waiter)
            if not data:
                return


def _wake(future: asyncio.Future[bytes]) -> None:
    if not future.done():
        future.set_result(b"")


class StreamLineReader:
    """An asyncio StreamReader (TCP) with the same bounded reads."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    async def readline(self, limit: int) -> bytes:
        try:
            return await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            return exc.partial
        except asyncio.LimitOverrunError as exc:
            return await self.reader.read(max(1, min(limit, exc.consumed)))

    async def read(self, n: int) -> bytes:
        try:
            return await self.reader.readexactly(n)
        except asyncio.IncompleteReadError as exc:
            return exc.partial
