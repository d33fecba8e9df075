"""The relaying worker's writes to the tables' command streams, several in one round trip.

A relayed socket's every message is one ``XADD`` to its table's command
stream (:mod:`stich.web.cluster.manager`).  Under load several relayed
clients speak in the same step of the event loop (an action's state reaches
every seat at once, and the next player answers); each ``XADD`` was its own
round trip through redis-py, about as costly in the worker as in Redis
(issue 42, "the cluster's cost").  :class:`CommandBatch` collects the
commands added in one step and sends them as one pipeline, in the order
they were added, so each client's commands keep their order (a client sends
its next message only once its last one is written).  Each caller still
waits until its own command is in the stream, and gets that command's
error, if any.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis


class CommandBatch:
    """``XADD`` s to command streams, sent together per step of the event loop (see the module's docstring)."""

    def __init__(self, redis: Redis, maxlen: int, *, nomkstream: bool = False) -> None:
        self.redis = redis
        self.maxlen = maxlen
        self.nomkstream = nomkstream
        """Append only to a stream that exists (``NOMKSTREAM``): an entry for a stream that is gone is dropped."""
        self._pending: list[tuple[str, dict[str, str], asyncio.Future[None]]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.round_trips = 0
        """Pipelines sent so far (for tests and profiles)."""

    async def add(self, stream: str, fields: dict[str, str]) -> None:
        """Append ``fields`` to ``stream`` (trimmed to about ``maxlen`` entries); returns once it is there."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append((stream, fields, done))
        await done

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if batch:
            task = asyncio.get_running_loop().create_task(self._send(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _send(self, batch: list[tuple[str, dict[str, str], asyncio.Future[None]]]) -> None:
        self.round_trips += 1
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for stream, fields, _done in batch:
                    pipe.xadd(stream, dict[Any, Any](fields), maxlen=self.maxlen, approximate=True, nomkstream=self.nomkstream)
                results = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # Redis away (or cancelled): every caller of the batch gets the error
            for _stream, _fields, done in batch:
                if not done.done():
                    done.set_exception(exc if isinstance(exc, Exception) else ConnectionError("the batch was cancelled"))
            if not isinstance(exc, Exception):
                raise
            return
        for (_stream, _fields, done), result in zip(batch, results, strict=True):
            if done.done():  # its caller was cancelled meanwhile
                continue
            if isinstance(result, Exception):
                done.set_exception(result)
            else:
                done.set_result(None)

    async def close(self) -> None:
        """Wait for the batches under way (a second at most)."""
        if self._tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait(list(self._tasks), timeout=1.0)
