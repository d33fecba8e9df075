"""The owner's side of a client connected to another worker: a :class:`RemoteConnection` and the :class:`Outbox`.

A :class:`RemoteConnection` stands in the table's ``connections`` like a
local :class:`~stich.web.runtime.connection.Connection`: it has the client's identity,
address and seat, counts for presence, and receives exactly the messages the
table would write to a local socket of that seat (its own view, or the public
one for a spectator).  Instead of a socket it has the :class:`Outbox`, which
publishes the messages on the inbox channel of the client's worker, each
addressed to the clients it is for.  A message the table sends to several
clients of one worker (a broadcast, or one seat's view to two of its tabs) is
encoded and published once with every addressee listed.  Messages are
published in the order they were sent, on one connection, so each client
reads them in order.

Everything queued for one worker in one step of the event loop (an action's
states for each of that worker's seats, its ``deal_end``...) goes out as
*one* published message, ``{"b": [body, ...]}`` with the bodies in order
(issue 42, "the cluster's cost": one ``PUBLISH`` per worker instead of one
per message, and one message for Redis to pass on and for the receiving
worker to read and decode).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from stich.web.cluster import keys
from stich.web.identity import Identity
from stich.web.runtime.broadcast import encode
from stich.web.runtime.connection import Connection
from stich.web.settings import Settings

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from starlette.websockets import WebSocket

log = logging.getLogger("stich.web.cluster")


class Outbox:
    """Messages for clients on other workers, published in order on each worker's inbox channel."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._pending: list[tuple[str, Mapping[str, Any] | str | None, int | None, list[str]]] = []
        """In order: (worker, message (or its encoded text) or ``None`` for a close, close code, addressees)."""
        self._merge: dict[tuple[str, int], int] = {}
        """(worker, id of a pending message) -> its place in ``_pending``."""
        self._last: dict[str, int] = {}
        """Client -> place in ``_pending`` of its newest entry (a message merges only into a later entry, keeping each client's order)."""
        self._batches: asyncio.Queue[list[tuple[str, str]] | None] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._scheduled = False

    def start(self) -> None:
        """Start publishing (needs the running event loop)."""
        self._sender = asyncio.get_running_loop().create_task(self._send_batches(), name="cluster outbox")

    async def close(self) -> None:
        """Publish what is pending, then stop."""
        self._flush()
        self._batches.put_nowait(None)
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, timeout=5)

    def send(self, worker: str, client: str, message: Mapping[str, Any] | str) -> None:
        """Queue ``message`` (or its encoded text) for ``client`` on ``worker`` (published once this step of the event loop is over)."""
        place = self._merge.get((worker, id(message)))
        if place is not None and self._pending[place][1] is message and self._last.get(client, -1) < place:
            self._pending[place][3].append(client)
        else:
            place = len(self._pending)
            self._pending.append((worker, message, None, [client]))
            self._merge[(worker, id(message))] = place
        self._last[client] = place
        self._schedule()

    def close_client(self, worker: str, client: str, code: int) -> None:
        """Queue the order to close ``client``'s socket with ``code`` (after what was queued for it before)."""
        self._last[client] = len(self._pending)
        self._pending.append((worker, None, code, [client]))
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if not self._pending:
            return
        bodies: dict[str, list[dict[str, Any]]] = {}
        for worker, message, code, clients in self._pending:
            body: dict[str, Any] = {"to": clients}
            if message is None:
                body["close"] = code
            elif isinstance(message, str):
                body["t"] = message  # already encoded once for its whole audience (stich.web.runtime.broadcast)
            else:
                body["m"] = message
            bodies.setdefault(worker, []).append(body)
        batch = [(keys.inbox(worker), encode({"b": listed})) for worker, listed in bodies.items()]
        self._pending = []
        self._merge.clear()
        self._last.clear()
        self._batches.put_nowait(batch)

    async def _send_batches(self) -> None:
        while True:
            batch = await self._batches.get()
            if batch is None:
                return
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
            except Exception:  # the clients of the batch miss messages; their workers resync them when Redis is back
                log.exception("publishing %d messages to other workers failed", len(batch))


class RemoteConnection(Connection):
    """A client of another worker as the owning table sees it (see the module's docstring)."""

    remote = True

    def __init__(self, outbox: Outbox, worker: str, client: str, identity: Identity | None, settings: Settings, address: str) -> None:
        self._kicked = False
        super().__init__(cast("WebSocket", None), identity, settings, address)
        self.outbox = outbox
        self.worker = worker
        """The worker the client's socket is connected to."""
        self.client = client
        """The client's id on that worker."""

    def send(self, message: Mapping[str, Any]) -> None:
        """Publish ``message`` to the client's worker (dropped once the client is gone)."""
        if not self.closed:
            self.outbox.send(self.worker, self.client, message)

    def send_text(self, text: str) -> None:
        """Publish an already encoded message (a whole audience's one text, :mod:`stich.web.runtime.broadcast`) to the client's worker."""
        if not self.closed:
            self.outbox.send(self.worker, self.client, text)

    @property
    def kicked(self) -> bool:
        """Disconnected by the table (flooding, an ended session); setting it tells the client's worker to close the socket."""
        return self._kicked

    @kicked.setter
    def kicked(self, value: bool) -> None:
        if value and not self._kicked:
            self.outbox.close_client(self.worker, self.client, self.close_code)
        self._kicked = value

    async def session_holds(self) -> bool:
        """The client's worker checked the session before it forwarded the message."""
        return True

    async def writer(self) -> None:  # pragma: no cover - the outbox writes
        """Nothing to write here: :meth:`send` publishes at once."""

    def finish(self) -> None:
        """The table is going away here: the client's worker closes the socket so that the client reconnects (1012)."""
        if not self.closed:
            self.close_code = 1012
            self.kicked = True
        self.closed = True
