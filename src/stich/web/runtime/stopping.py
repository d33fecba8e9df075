"""Stopping background tasks at shutdown within a deadline, even where a cancellation gets lost.

A server's shutdown cancels its background tasks (table drivers, analyses, the
cluster's Redis readers) and waits for them.  One cancellation is not always
enough: Python 3.11's ``asyncio.wait_for`` loses a cancellation that arrives
as its awaitable finishes (CPython gh-86296, fixed in 3.12), and redis-py
sends every command through one, so a blocking ``XREAD`` cancelled at that
moment returned normally and its reader loop read on for good, and the
shutdown waited for it forever (a fresh clone's test run hung at 98% until
CI's limit; reproduced outside stich about once in a hundred cancellations).
:func:`stop_tasks` therefore cancels again while a task runs on, and gives up
after a deadline with a log line naming the tasks left, so a shutdown always
ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger("stich.web")

STOP_SECONDS = 5.0
"""How long :func:`stop_tasks` waits by default before it leaves the tasks still running."""
RECANCEL_SECONDS = 0.2
"""How often a task that has not ended yet is cancelled again."""


async def stop_tasks(tasks: Iterable[asyncio.Task[object]], *, seconds: float = STOP_SECONDS) -> list[asyncio.Task[object]]:
    """Cancel ``tasks`` and wait for them to end, cancelling again every :data:`RECANCEL_SECONDS` while any runs on.

    Returns the tasks still running after ``seconds`` (logged as a warning;
    normally none).  What the tasks raised is not re-raised: they are being
    stopped, and their errors were theirs to log.
    """
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            names = sorted(task.get_name() for task in pending)
            log.warning("shutdown: %d task(s) did not stop within %.1f s and are left running: %s", len(pending), seconds, names)
            break
        _done, pending = await asyncio.wait(pending, timeout=min(RECANCEL_SECONDS, left))
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved, so that asyncio does not log it as never retrieved
    return sorted(pending, key=lambda task: task.get_name())
