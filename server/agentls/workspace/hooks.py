"""Named points of a write, for tests that crash or race real processes there.

`reached(point)` does nothing unless the process was started with the test variables:
- `AGENTLS_TEST_HOOK_FIFO=<path>`: the point's name and the pid are written to that FIFO
  (or file) as one line, so a test waits on the event instead of sleeping;
- `AGENTLS_TEST_HOOK_STOP=<point>`: at that point the process stops for good (after the
  line above), for the test to kill it;
- `AGENTLS_TEST_HOOK_SLEEP=<point>:<seconds>`: at that point the process sleeps;
- `AGENTLS_TEST_HOOK_GATE=<point>:<fifo>`: at that point the process waits for a line on
  that FIFO (the test opens the gate), so two processes reach a point together.
The points of an apply, in order: `deciding` (an accepted proposal, before the write
lock), `checked` (the stale check passed, the write lock held), `journaled` (the run's trace records the intended write), `temp-written` (a new
content fsync'd to its temporary file), `replaced` (a file renamed into place),
`resolved` (the store has the outcome, before the trace records it).
Must not know: anything above the workspace layer.
"""

from __future__ import annotations

import os
import threading
import time

FIFO = "AGENTLS_TEST_HOOK_FIFO"
STOP = "AGENTLS_TEST_HOOK_STOP"
SLEEP = "AGENTLS_TEST_HOOK_SLEEP"
GATE = "AGENTLS_TEST_HOOK_GATE"


def reached(point: str) -> None:
    fifo = os.environ.get(FIFO)
    if fifo:
        fd = os.open(fifo, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{point} {os.getpid()}\n".encode())
        finally:
            os.close(fd)
    if os.environ.get(STOP) == point:
        threading.Event().wait()  # until killed
    name, _, seconds = os.environ.get(SLEEP, "").partition(":")
    if name == point and seconds:
        time.sleep(float(seconds))
    name, _, gate = os.environ.get(GATE, "").partition(":")
    if name == point and gate:
        with open(gate, "rb") as fh:
            fh.readline()
