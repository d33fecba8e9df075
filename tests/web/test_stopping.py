"""A shutdown stops its background tasks within a deadline, even one whose cancellation got lost (stich.web.runtime.stopping).

redis-py 8.2 can swallow a cancellation inside a blocking ``XREAD`` and run
the command again; the cluster's command reader, cancelled at that moment,
read on for good and the shutdown waited for it forever.  A task that
swallows its first cancellation stands in for it here.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from stich.web.runtime.stopping import stop_tasks

from .helpers import run_async


async def _swallows_cancellations(left: list[int]) -> None:
    """Runs on through as many cancellations as ``left[0]`` says (as the swallowed XREAD did), ending at the next one after."""
    while True:
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            if left[0] <= 0:
                raise
            left[0] -= 1
            task = asyncio.current_task()
            assert task is not None
            task.uncancel()


def test_a_task_that_swallows_its_first_cancellations_is_cancelled_again_until_it_ends() -> None:
    async def scenario() -> tuple[list[asyncio.Task[object]], bool]:
        stubborn = asyncio.create_task(_swallows_cancellations([2]), name="stubborn")
        plain = asyncio.create_task(asyncio.sleep(30), name="plain")
        await asyncio.sleep(0.01)
        left = await stop_tasks([stubborn, plain], seconds=5.0)
        return left, stubborn.cancelled() and plain.cancelled()

    left, both_cancelled = run_async(scenario())
    assert left == [] and both_cancelled  # one cancel() each, awaited, would have waited forever for "stubborn"


def test_a_task_that_never_ends_is_left_after_the_deadline_and_named_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> tuple[list[str], float, int]:
        loop = asyncio.get_running_loop()
        swallow = [10**9]
        forever = asyncio.create_task(_swallows_cancellations(swallow), name="forever")
        await asyncio.sleep(0.01)  # it runs (a task cancelled before its first step never starts)
        started = loop.time()
        left = await stop_tasks([forever], seconds=0.5)
        took = loop.time() - started
        names = [task.get_name() for task in left]
        swallowed = 10**9 - swallow[0]
        swallow[0] = 0  # the test's own clean-up: the next cancellation ends it
        forever.cancel()
        await asyncio.wait([forever], timeout=1.0)
        return names, took, swallowed

    with caplog.at_level(logging.WARNING, logger="stich.web"):
        names, took, swallowed = run_async(scenario())
    assert names == ["forever"]
    assert swallowed >= 2  # it was cancelled again while it ran on
    assert took < 5.0  # the shutdown goes on instead of waiting for it
    assert any("did not stop" in record.message and "forever" in record.message for record in caplog.records)


def test_tasks_already_done_or_failed_stop_at_once_without_raising() -> None:
    async def fails() -> None:
        raise RuntimeError("its own error, logged by itself")

    async def scenario() -> list[asyncio.Task[object]]:
        failed = asyncio.create_task(fails())
        finished = asyncio.create_task(asyncio.sleep(0))
        await asyncio.sleep(0.01)
        return await stop_tasks([failed, finished])

    assert run_async(scenario()) == []
