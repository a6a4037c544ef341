"""`llm.base.cancellable`: a coroutine raced against a cancel event — what a model turn
(no grace) and a tool-backed command (a grace to stop by itself) both use."""

from __future__ import annotations

import asyncio

import pytest

from agentls.llm.base import cancellable


async def test_the_result_when_the_work_ends_first() -> None:
    cancel = asyncio.Event()
    assert await cancellable(asyncio.sleep(0, "done"), cancel) == "done"
    assert await cancellable(asyncio.sleep(0, "no event"), None) == "no event"


async def test_the_work_raises_through() -> None:
    async def fail() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        await cancellable(fail(), asyncio.Event())


async def test_without_grace_the_work_is_cancelled_at_once() -> None:
    cancel, stopped = asyncio.Event(), asyncio.Event()

    async def work() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            stopped.set()
            raise

    asyncio.get_running_loop().call_soon(cancel.set)
    with pytest.raises(asyncio.CancelledError):
        await cancellable(work(), cancel)
    await asyncio.sleep(0)
    assert stopped.is_set()


async def test_with_grace_the_work_may_end_by_itself_and_is_not_cancelled() -> None:
    cancel, told, ended = asyncio.Event(), asyncio.Event(), []

    async def tool() -> str:
        await cancel.wait()  # told to stop, as the executor tells a running tool
        told.set()
        await asyncio.sleep(0.05)  # stopping takes a moment
        ended.append("by itself")
        raise RuntimeError("stopped")  # its outcome is dropped, not left unretrieved

    asyncio.get_running_loop().call_soon(cancel.set)
    with pytest.raises(asyncio.CancelledError):
        await cancellable(tool(), cancel, grace_s=10)
    assert told.is_set() and ended == ["by itself"]


async def test_work_that_outlives_its_grace_is_cancelled() -> None:
    cancel, stopped = asyncio.Event(), asyncio.Event()

    async def stubborn() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            stopped.set()
            raise

    asyncio.get_running_loop().call_soon(cancel.set)
    with pytest.raises(asyncio.CancelledError):
        await cancellable(stubborn(), cancel, grace_s=0.05)
    await asyncio.sleep(0)
    assert stopped.is_set()
