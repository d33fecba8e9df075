"""A worker's stop ends its background tasks even where one swallowed its cancellation (Python 3.11's wait_for, gh-86296)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from stich.web.cluster.manager import cancel_and_wait


async def _swallows(times: list[int], log: list[str]) -> None:
    """A loop that goes on after its first ``times[0]`` cancellations, as a redis-py call inside 3.11's wait_for can."""
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            log.append("cancelled")
            if len(log) > times[0]:
                raise


def test_a_task_that_swallowed_its_cancellation_is_cancelled_again_until_it_ends() -> None:
    async def main() -> list[str]:
        log: list[str] = []
        task = asyncio.create_task(_swallows([2], log))
        await asyncio.sleep(0)
        await cancel_and_wait([task], seconds=10)
        assert task.cancelled()
        return log

    assert asyncio.run(main()) == ["cancelled"] * 3


def test_a_task_that_never_ends_is_left_after_the_deadline_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> bool:
        times = [10**9]
        task = asyncio.create_task(_swallows(times, []), name="stubborn")
        await asyncio.sleep(0)
        await cancel_and_wait([task], seconds=0.2)  # returns: a stop must not hang
        running = not task.done()
        times[0] = 0  # now it ends at its next cancellation
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return running

    with caplog.at_level(logging.WARNING, logger="stich.web.cluster"):
        assert asyncio.run(main())
    assert "did not stop within" in caplog.text and "stubborn" in caplog.text
