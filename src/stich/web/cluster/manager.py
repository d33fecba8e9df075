"""The table manager of one worker among several: leases, forwarded commands, relayed sockets, takeover.

:class:`ClusterTableManager` is the one-process
:class:`~stich.web.runtime.manager.TableManager` plus Redis (docs/decisions/0033-several-workers.md):

* It runs (*owns*) only the tables whose lease it holds
  (:mod:`~stich.web.cluster.leases`): the tables it creates, and the ones it
  finds without an owner when a client asks for them or when it sweeps the
  database (every ``lease_seconds``), which is how a dead worker's tables
  move.  A taken-over table is rebuilt from its stored actions as after a
  restart (:meth:`~stich.web.runtime.manager.TableManager.load_table`); an action is
  stored before it is applied or told to anybody, so nothing confirmed is
  lost and nothing is played twice.
* A socket for a table another worker owns is *relayed*: this worker checks
  the origin, the session, the socket caps and the shared message budget,
  and appends every message, pings included, to the table's command
  stream (``XADD``, so in order); the owner attaches a
  :class:`~stich.web.cluster.remote.RemoteConnection` for it and handles the
  messages as a local socket's.  What the owner sends back arrives on this
  worker's inbox channel, addressed to the client.  A client that follows
  (``?follow=1``) is instead sent to the owner's advertised address, where
  it has one (:mod:`~stich.web.cluster.direct`, decision 0068): the relay is
  the fallback.
* REST calls that change another worker's table (join, leave, bots, and a
  table's summary) travel the same stream and wait for the owner's answer;
  so does a hint at a learning table (issue 43), answered beside the
  table's other commands rather than before them, since it thinks.
* The table caps per person and address (:mod:`stich.web.guards.table_caps`) are
  counted in Redis for every worker (:mod:`~stich.web.cluster.shared_caps`)
  instead of in the worker: a table counts while it is unfinished and a
  worker holds its lease, and a worker that takes a table over counts it
  again against the owners stored with it.
* A worker renews its leases and its heartbeat every third of
  ``lease_seconds``.  An owner drops the remote clients of a worker whose
  heartbeat is gone (they count as away, so stand-ins play for them); a
  relaying worker closes its clients' sockets (1012, "come back") when the
  table's owner changes, so that they reconnect to the new owner.
* A relayed socket is either served or closed, never silent (issue 42): the
  owner answers its attach (the snapshot) and its pings (the relay does not
  answer them itself), and closes a client it no longer serves when that
  client speaks; the relay closes (1012) a socket whose owner left the
  attach or a ping unanswered for ``lease_seconds``.  A stalled worker's
  clients thus never sit on an open socket while stand-ins play their cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from stich.web.cluster import direct, keys
from stich.web.cluster.command_batch import CommandBatch
from stich.web.cluster.leases import Leases
from stich.web.cluster.remote import Outbox, RemoteConnection
from stich.web.cluster.shared_caps import SEARCH, TABLES, SharedTableCaps
from stich.web.cluster.shared_limits import SharedBudgets
from stich.web.cluster.shared_sockets import SharedSockets
from stich.web.guards.client_address import client_address
from stich.web.guards.socket_limits import Ticket
from stich.web.guards.table_caps import Owner, check_bot_level, is_search_bot
from stich.web.identity import Identity
from stich.web.protocol import WHOLE, ApiError, PingMessage, error_message
from stich.web.runtime.bot_pool import BotThinker
from stich.web.runtime.connection import Connection, screen_message
from stich.web.runtime.hints import table_hint
from stich.web.runtime.manager import TableManager
from stich.web.runtime.seats import table_bot_spec
from stich.web.runtime.stopping import stop_tasks
from stich.web.runtime.table import TableRuntime
from stich.web.settings import Settings
from stich.web.storage.db import Database

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

    from stich.web.storage.db import TableRow

log = logging.getLogger("stich.web.cluster")

COMMANDS_LENGTH = 100_000
"""Commands kept in a worker's command stream (approximately); the owner reads them within milliseconds."""
STREAM_DAYS = 2
"""A worker's command stream expires this long after its last renewal (a stopped worker deletes it)."""
CALL_TIMEOUT = 10.0
"""Seconds a forwarded REST call waits for the owner's answer before 503."""
TAKEOVER_CODE = 1012
"""Close code telling a client that the table moved ("service restart"): reconnect, and the table is where it was."""
NOT_RUNNING = "no such open or running table"
TAKEOVER_LOCK_MS = 2000
"""Milliseconds a takeover waits for a stale owner's write in progress (its row lock) before it gives the lease up and tries later."""
REDIS_CONNECTIONS = 512
"""Redis connections one worker opens at most (a blocked read, the inbox and every forwarded call waiting for its answer hold one)."""
REDIS_WAIT = 30.0
"""Seconds a Redis command waits for a free connection of the pool before it fails."""


def new_worker_id() -> str:
    """A worker id unique across machines and restarts: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def _identity_json(identity: Identity | None) -> dict[str, Any] | None:
    return None if identity is None else {"session_id": identity.session_id, "user_id": identity.user_id, "name": identity.name}


def _identity(data: Any) -> Identity | None:
    return None if data is None else Identity(int(data["session_id"]), data["user_id"], str(data["name"]))


@dataclass
class Relayed:
    """A local socket of a table another worker owns."""

    conn: Connection
    table: str
    owner: str
    writer: asyncio.Task[None]
    waiting_since: float | None = None
    """Since when (monotonic) the relay waits for the owner's first word after the attach or a ping; ``None``: not waiting.

    An owner answers both (the table's snapshot, a pong, or a close); one
    silent past ``lease_seconds`` cannot serve the socket, which is then sent
    away (1012) instead of staying open and silent (issue 42).
    """

    def send_away(self, reason: str, code: int = TAKEOVER_CODE) -> None:
        """Close the socket with ``code`` once what is queued for it is written (1012: the table moved, reconnect); ``reason`` is logged."""
        if self.conn.kicked:
            return
        log.warning("table %s: relayed client sent away (%d): %s", self.table, code, reason)
        self.conn.close_code = code
        self.conn.kicked = True
        self.conn.finish()
        asyncio.get_running_loop().create_task(self._close_after_writer(code))

    async def _close_after_writer(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self.writer), timeout=5)
        await _close_socket(self.conn.websocket, code)


@dataclass
class Owned:
    """What an owned table needs besides its runtime: the queue to its command handler, its remote clients."""

    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    remote: dict[str, RemoteConnection] = field(default_factory=dict)
    handler: asyncio.Task[None] | None = None


class ClusterTableManager(TableManager):
    """The tables of one worker among several sharing a PostgreSQL and a Redis (see the module's docstring)."""

    shared = True

    def __init__(self, settings: Settings, db: Database, redis: Redis, bots: BotThinker | None = None, worker: str | None = None) -> None:
        super().__init__(settings, db, bots)
        self.redis = redis
        self.worker = worker or new_worker_id()
        self.leases = Leases(redis, self.worker, settings.lease_seconds)
        self.budgets = SharedBudgets(redis, settings)
        self.shared_sockets = SharedSockets(redis, self.worker)
        """The open-socket caps, counted across workers (besides this worker's own counts)."""
        self.caps = SharedTableCaps(redis, settings)
        """The table caps per person and address, counted across workers (replacing the process's own counts)."""
        self.outbox = Outbox(redis)
        self.commands = CommandBatch(redis, COMMANDS_LENGTH, nomkstream=True)
        """This worker's writes to command streams (relayed messages, forwarded calls), one round trip per event-loop step."""
        self.owned: dict[str, Owned] = {}
        self.relayed: dict[str, Relayed] = {}
        """Local sockets of other workers' tables, by client id."""
        self._claims = asyncio.Lock()
        self._subscribed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        """Redis writes nobody waits for (a finished table's counts released), kept until done."""
        self._commands_id: str | None = None
        """Where this worker's command stream was read to (``None``: not yet started)."""
        self._claiming: dict[str, list[dict[str, Any]]] = {}
        """Tables whose lease this worker is taking (or has, before they run here): the commands read for them meanwhile."""
        self._published: dict[str, str] = {}
        """The lobby entry last published per owned table (only a changed one is published again)."""

    # ----------------------------------------------------------- lifecycle
    def load(self) -> None:
        """Nothing at start: the sweep (:meth:`start`) takes the tables nobody owns."""

    def start(self) -> None:
        """Start the outbox, the inbox listener, the command reader, the renewals and the sweep."""
        self.outbox.start()
        loop = asyncio.get_running_loop()
        for name, work in (
            ("inbox", self._listen),
            ("commands", self._read_commands),
            ("renew", self._renew_loop),
            ("sweep", self._sweep_loop),
            ("relays", self._relays_loop),
        ):
            self._tasks.append(loop.create_task(self._forever(name, work), name=f"cluster {name}"))

    async def _forever(self, name: str, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work`` again whenever it fails (Redis away for a moment), a second later."""
        while True:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: %s failed; again in a second", self.worker, name)
                await asyncio.sleep(1.0)

    async def stop(self) -> None:
        """Stop the tables and every task, give the leases up and tell other workers' clients to reconnect."""
        await stop_tasks(self._tasks)
        for owned in self.owned.values():
            if owned.handler is not None:
                owned.handler.cancel()
        await super().stop()
        await self.outbox.close()
        await self.commands.close()
        with contextlib.suppress(Exception):
            for table_id in list(self.owned):
                await self._release(table_id)
            await self.redis.delete(keys.alive(self.worker), keys.commands(self.worker))
        self.owned.clear()
        await self.redis.aclose()

    # ----------------------------------------------------------- ownership
    async def claim(self, table_id: str) -> TableRuntime | None:
        """Take over ``table_id`` if it is open or running and nobody owns it; the runtime this worker now runs, or ``None``."""
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        async with self._claims:
            runtime = self.tables.get(table_id)
            if runtime is not None:
                return runtime
            self._claiming[table_id] = []  # before the lease: whoever sees us own it writes after this, and is kept until _own
            try:
                return await self._claim(table_id)
            finally:
                self._claiming.pop(table_id, None)

    async def _claim(self, table_id: str) -> TableRuntime | None:
        """:meth:`claim`'s work, under its lock, with the table's commands kept meanwhile (``_claiming``)."""
        if not await self.leases.acquire(table_id):
            return None
        try:
            # the fence moves on before the actions are read: a stale owner's write is refused from here, or already among them
            epoch = await asyncio.to_thread(self.db.take_over, table_id, TAKEOVER_LOCK_MS)
            row = None if epoch is None else await asyncio.to_thread(self.db.get_table, table_id)
            if row is None or row.status not in ("open", "playing"):
                await self.leases.release(table_id)
                return None
            runtime = await asyncio.to_thread(self.load_table, row)
            runtime.creator, runtime.search_owner = await self.caps.adopt(table_id, runtime.creator, runtime.search_owner)
        except BaseException:
            self.tables.pop(table_id, None)
            with contextlib.suppress(Exception):
                await self.leases.release(table_id)
            raise
        log.info("worker %s: took table %s over (lease epoch %s)", self.worker, table_id, runtime.epoch)
        await self._own(runtime)
        return runtime

    async def _own(self, runtime: TableRuntime) -> None:
        """Start running a table whose lease this worker holds: its driver, command handler (fed what came since the lease), lobby entry."""
        owned = Owned()
        for command in self._claiming.pop(runtime.id, ()):
            owned.queue.put_nowait(command)
        self.owned[runtime.id] = owned
        owned.handler = asyncio.get_running_loop().create_task(self._handle_commands(runtime.id, owned), name=f"commands {runtime.id}")
        runtime.start_driver()
        await self._publish_summaries([runtime])

    async def create(
        self, row: TableRow, identity: Identity | None = None, address: str | None = None, bots: str | None = None
    ) -> TableRuntime:
        """Create the table (:meth:`TableManager.create`) under this worker's lease, taken before the table is stored."""
        self._claiming[row.id] = []  # a client may attach as soon as the lease is seen, before the table runs here
        try:
            return await self._create(row, identity, address, bots)
        finally:
            self._claiming.pop(row.id, None)

    async def _create(self, row: TableRow, identity: Identity | None, address: str | None, bots: str | None) -> TableRuntime:
        """:meth:`create`'s work, with the table's commands kept meanwhile (``_claiming``)."""
        if not await self.leases.acquire(row.id):  # pragma: no cover - a fresh random id
            raise ApiError(503, WHOLE, "the new table's id is taken; try again")
        creator = Owner.of(identity, address) if identity is not None else None
        counts: list[tuple[str, str]] = []
        try:
            if creator is not None:
                assert identity is not None
                if bots is not None:  # as in one process: the level (403) first, then the tables with search bots, then the tables
                    spec = table_bot_spec(bots, "bots")
                    check_bot_level(self.settings, spec, identity, "bots")
                    if is_search_bot(spec):
                        counts.append((SEARCH, "bots"))
                counts.append((TABLES, "tables"))
                await self.caps.claim(row.id, creator, counts)  # counted from here on (the lease is held), on every worker
            runtime = await super().create(row, identity, address, bots)
        except BaseException:
            stored = self.tables.get(row.id)
            if creator is not None and stored is None:
                with contextlib.suppress(Exception):
                    await self.caps.release(row.id, [(TABLES, creator), (SEARCH, creator)], forget_owners=True)
            elif stored is not None and stored.search_owner is None:  # stored, but its search bots were not seated
                with contextlib.suppress(Exception):
                    await self.caps.release(row.id, [(SEARCH, creator)])
            if stored is None:
                await self.leases.release(row.id)
            raise
        await self._own(runtime)
        return runtime

    # ----------------------------------------------------------- table caps
    def check_new_table(self, owner: Owner, field: str = "tables") -> None:
        """Nothing here: :meth:`create` counts the table in Redis, for every worker (:mod:`~stich.web.cluster.shared_caps`)."""

    def check_search_tables(self, owner: Owner, field: str, besides: TableRuntime | None = None) -> None:
        """Nothing here: :meth:`count_search_table` counts the table in Redis, for every worker."""

    async def count_search_table(self, runtime: TableRuntime, owner: Owner, field: str) -> None:
        """Count ``runtime`` as ``owner``'s table with search bots on every worker (429 naming ``field`` past the cap)."""
        await self.caps.claim(runtime.id, owner, [(SEARCH, field)])

    def uncount_search_table(self, runtime: TableRuntime) -> None:
        """Seating the search bots failed: the table no longer counts as one with search bots."""
        self._later(self.caps.release(runtime.id, [(SEARCH, runtime.search_owner)]), f"releasing table {runtime.id}'s search count")

    def table_finished(self, runtime: TableRuntime) -> None:
        """The table ended: it no longer counts against its creator or its search bots' owner, on any worker."""
        counts = [(TABLES, runtime.creator), (SEARCH, runtime.search_owner)]
        self._later(self.caps.release(runtime.id, counts, forget_owners=True), f"releasing table {runtime.id}'s counts")

    def _later(self, work: Awaitable[None], what: str) -> None:
        """Run ``work`` on the event loop without waiting for it (logged should it fail; the lease's end releases it then)."""

        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("worker %s: %s failed", self.worker, what)

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def forget(self, runtime: TableRuntime) -> None:
        """A finished table with no clients left: forget it, give its lease up and delete its stream."""
        super().forget(runtime)
        owned = self.owned.pop(runtime.id, None)
        if owned is not None and owned.handler is not None:
            owned.handler.cancel()
        asyncio.get_running_loop().create_task(self._release(runtime.id))

    async def _release(self, table_id: str) -> None:
        self._published.pop(table_id, None)
        with contextlib.suppress(Exception):
            await self.leases.release(table_id)
            await self.redis.hdel(keys.LOBBY, table_id)

    def lost_table(self, runtime: TableRuntime) -> None:
        """A write of ``runtime`` was refused: another worker took the table over while this one stalled; let it go at once."""
        if self.tables.get(runtime.id) is not runtime:
            return
        log.warning(
            "worker %s: table %s was taken over (a write at lease epoch %s was refused); letting it go",
            self.worker,
            runtime.id,
            runtime.epoch,
        )
        self._later(self._drop(runtime.id, runtime), f"letting table {runtime.id} go")

    async def _drop(self, table_id: str, runtime: TableRuntime | None = None) -> None:
        """This worker lost the table (its lease, or a write refused by the fence): stop running it at once; its clients reconnect.

        With ``runtime``, only if that is still the table this worker runs
        (not one it has taken over again since).
        """
        if runtime is not None and self.tables.get(table_id) is not runtime:
            return
        if runtime is None:
            log.warning("worker %s: lost the lease of table %s; letting it go", self.worker, table_id)
        self._published.pop(table_id, None)
        owned = self.owned.pop(table_id, None)
        if owned is not None and owned.handler is not None:
            owned.handler.cancel()
        runtime = self.tables.pop(table_id, None)
        if runtime is None:
            return
        self.bots.forget(table_id)
        if runtime.driver is not None:
            runtime.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runtime.driver
        for conn in list(runtime.connections):
            _send_away(conn)

    # ------------------------------------------------------------ renewals
    async def _renew_loop(self) -> None:
        interval = self.settings.lease_seconds / 3
        while True:
            started = time.monotonic()
            await self._renew()
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))

    async def _renew(self) -> None:
        """Renew the heartbeat and the leases, drop lost tables, forget dead workers' clients, refresh the lobby."""
        await self.redis.set(keys.alive(self.worker), self.settings.worker_url or direct.NO_ADDRESS, px=self.leases.ms)
        await self._keep_stream()
        for table_id in await self.leases.renew(list(self.owned)):
            await self._drop(table_id)
        workers = sorted({conn.worker for owned in self.owned.values() for conn in owned.remote.values()})
        if workers:
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker in workers:
                    pipe.exists(keys.alive(worker))
                found = await pipe.execute()
            dead = {worker for worker, exists in zip(workers, found, strict=True) if not exists}
            for table_id, owned in self.owned.items():
                for client, conn in list(owned.remote.items()):
                    if conn.worker in dead:  # should the worker be alive after all (stalled), its client reconnects
                        log.warning(
                            "table %s: no heartbeat of worker %s; its client %s detached, told to reconnect", table_id, conn.worker, client
                        )
                        conn.finish()
                        owned.queue.put_nowait({"op": "detach", "conn": client})
        await self._publish_summaries([self.tables[t] for t in self.owned if t in self.tables])
        await self._watch_owners()

    async def _watch_owners(self) -> None:
        """Close relayed sockets whose table changed owner (or has none): their clients reconnect to whoever runs it now."""
        tables = sorted({relayed.table for relayed in self.relayed.values()})
        if not tables:
            return
        owners = dict(zip(tables, await self.leases.owners(tables), strict=True))
        for relayed in list(self.relayed.values()):
            if owners.get(relayed.table) != relayed.owner:
                relayed.send_away(f"the table is run by {owners.get(relayed.table)} now, not {relayed.owner}")

    async def _relays_loop(self) -> None:
        """Every third of ``lease_seconds``, send away the relayed sockets the owner left unanswered (:meth:`_check_relays`)."""
        while True:
            await asyncio.sleep(self.settings.lease_seconds / 3)
            self._check_relays()

    def _check_relays(self, now: float | None = None) -> None:
        """Close (1012) each relayed socket whose owner has not answered its attach or ping for ``lease_seconds``.

        Needs no Redis: a socket is either served or closed, also while this
        worker's connection to Redis is broken or its inbox misses messages.
        """
        now = time.monotonic() if now is None else now
        for relayed in list(self.relayed.values()):
            if relayed.waiting_since is not None and now - relayed.waiting_since > self.settings.lease_seconds:
                relayed.send_away(f"the owner {relayed.owner} did not answer for {now - relayed.waiting_since:.1f} s")

    async def _sweep_loop(self) -> None:
        while True:
            await self._sweep()
            await asyncio.sleep(self.settings.lease_seconds)

    async def _sweep(self) -> None:
        """Take over every open or running table nobody owns (at start, and those of a worker that died)."""
        ids = await asyncio.to_thread(self.db.table_ids_with_status, ["open", "playing"])
        candidates = [table_id for table_id in ids if table_id not in self.tables]
        running = set(ids)
        ended = [table_id for table_id in await self.redis.hkeys(keys.LOBBY) if table_id not in running]
        if ended:  # lobby entries a dead worker left of tables that have ended since
            await self.redis.hdel(keys.LOBBY, *ended)
        for table_id, owner in zip(candidates, await self.leases.owners(candidates), strict=True):
            if owner is None:
                try:
                    await self.claim(table_id)
                except Exception:
                    log.exception("worker %s: taking table %s over failed", self.worker, table_id)

    # ------------------------------------------------------------ commands
    async def _read_commands(self) -> None:
        """Read this worker's command stream and queue each command to its table (kept for a table being taken, dropped for others).

        One stream per owning worker, each entry naming its table: a read
        costs the same whether the worker owns one table or a thousand (it
        was an ``XREAD`` over every owned table's stream, two arguments per
        table on every wake-up: issue 42, the cluster's cost).
        """
        stream = keys.commands(self.worker)
        await self._keep_stream()
        if self._commands_id is None:  # at start only: a reader started again after a failure goes on where it stopped
            self._commands_id = await self._newest_id(stream)
        while True:
            found: Any = await self.redis.xread({stream: self._commands_id}, block=1000, count=500)
            for _stream, entries in found or []:
                self._commands_id = entries[-1][0]
                for _entry_id, fields in entries:
                    table_id = fields.get("t", "")
                    owned = self.owned.get(table_id)
                    kept = self._claiming.get(table_id) if owned is None else None
                    if owned is None and kept is None:
                        continue  # a table this worker no longer runs (or the marker that made the stream): its clients are sent away
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        command = json.loads(fields["c"])
                        if owned is not None:
                            owned.queue.put_nowait(command)
                        elif kept is not None:
                            kept.append(command)

    async def _keep_stream(self) -> None:
        """Keep this worker's command stream: renew its expiry (``STREAM_DAYS``), and make it again where it is gone.

        Other workers append with ``NOMKSTREAM``: a stream that is gone (its
        worker stopped, or Redis lost it) is not made again without an
        expiry by a late relay; its clients are then sent away unanswered.
        A renewal is one ``EXPIRE``; only where it finds no stream (at start,
        or after Redis lost it) is a marker entry written to make one, so the
        heartbeat neither grows the stream nor wakes its reader.
        """
        stream = keys.commands(self.worker)
        seconds = STREAM_DAYS * 86400
        if await self.redis.expire(stream, seconds):
            return
        async with self.redis.pipeline(transaction=True) as pipe:  # made and given its expiry at once: never one without
            pipe.xadd(stream, {"t": ""}, maxlen=COMMANDS_LENGTH, approximate=True)
            pipe.expire(stream, seconds)
            await pipe.execute()

    async def _newest_id(self, stream: str) -> str:
        """The id of the newest entry of ``stream`` (``0-0`` for none): reading after it gets only what comes next."""
        newest: Any = await self.redis.xrevrange(stream, count=1)
        return str(newest[0][0]) if newest else "0-0"

    async def _handle_commands(self, table_id: str, owned: Owned) -> None:
        """Carry out one table's commands in their order."""
        while True:
            command = await owned.queue.get()
            runtime = self.tables.get(table_id)
            try:
                if runtime is None:  # pragma: no cover - the handler is cancelled with the table
                    return
                await self._execute(runtime, owned, command)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: command %r failed", table_id, command.get("op"))

    async def _execute(self, runtime: TableRuntime, owned: Owned, command: dict[str, Any]) -> None:
        op = command.get("op")
        client = str(command.get("conn", ""))
        if op == "attach":
            identity = _identity(command.get("identity"))
            conn = RemoteConnection(self.outbox, str(command["worker"]), client, identity, self.settings, str(command.get("address", "")))
            if not runtime.may_see(identity, command.get("invite")):
                conn.send(error_message("invite", "this table is private; you need its invite link"))
                conn.close_code = 4403
                conn.kicked = True
                return
            owned.remote[client] = conn
            await runtime.attach(conn)
        elif op == "message":
            known = owned.remote.get(client)
            if known is not None and not known.kicked:
                await runtime.handle(known, str(command.get("text", "")))
            elif command.get("worker"):  # a client this owner no longer serves (detached, or its close was lost): close it again
                log.warning("table %s: message of a client %s it does not serve; told to reconnect", runtime.id, client)
                self.outbox.close_client(str(command["worker"]), client, known.close_code if known is not None else TAKEOVER_CODE)
        elif op == "detach":
            gone = owned.remote.pop(client, None)
            if gone is not None:
                gone.closed = True
                await runtime.detach(gone)
        elif op == "call":
            if command.get("method") == "hint":  # a hint thinks for seconds: the table's other commands do not wait for it
                self._later(self._answer(runtime, command), f"answering a hint at table {runtime.id}")
            else:
                await self._answer(runtime, command)

    async def _answer(self, runtime: TableRuntime, command: dict[str, Any]) -> None:
        """Carry out a forwarded REST call and push the answer (the summary, or the error) to the caller's reply list."""
        identity = _identity(command.get("identity"))
        args = command.get("args") or {}
        answer: dict[str, Any]
        try:
            method = command.get("method")
            if method == "summary":
                if not runtime.may_see(identity, args.get("invite")):
                    raise ApiError(404, "table", NOT_RUNNING)
                answer = {"ok": runtime.summary(identity, invite=args.get("invite"))}
            elif identity is None:
                raise ApiError(401, "session", "no session")
            elif method == "hint":
                if not runtime.may_see(identity, None):
                    raise ApiError(404, "table", NOT_RUNNING)
                answer = {"ok": await table_hint(runtime, identity)}
            elif method == "join":
                await runtime.join(identity, args.get("seat"), args.get("invite"))
                answer = {"ok": runtime.summary(identity)}
            elif method in ("leave", "bots"):
                if not runtime.may_see(identity, None):
                    raise ApiError(404, "table", NOT_RUNNING)
                if method == "leave":
                    await runtime.leave(identity)
                else:
                    owner = Owner.of(identity, None)
                    owner = Owner(owner.person, args.get("address"))
                    await runtime.add_bots(identity, str(args.get("bot")), args.get("seats"), owner)
                answer = {"ok": runtime.summary(identity)}
            else:
                raise ApiError(422, WHOLE, f"unknown table call {method!r}")
        except ApiError as exc:
            answer = {"error": {"status": exc.status, "field": exc.field, "message": exc.message, "headers": exc.headers}}
        reply = keys.reply(str(command.get("reply")))
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.rpush(reply, json.dumps(answer))
            pipe.expire(reply, int(CALL_TIMEOUT) + 5)
            await pipe.execute()

    async def _command(self, owner: str, table_id: str, command: dict[str, Any]) -> None:
        """Append ``command`` for ``table_id`` to the command stream of ``owner``, the worker running the table."""
        await self.commands.add(keys.commands(owner), {"t": table_id, "c": json.dumps(command)})

    async def forward(
        self, table_id: str, method: str, identity: Identity | None, args: dict[str, Any], wait: float = CALL_TIMEOUT
    ) -> dict[str, Any] | None:
        """Carry out a REST call on the worker owning ``table_id``: its answer, or ``None`` when nobody runs the table.

        The owner's refusal comes back as the same :class:`ApiError`; ``wait``
        is how long the answer may take (a hint's search, longer than a join).
        """
        owner = await self.leases.owner(table_id)
        if owner is None or owner == self.worker:
            return None
        token = secrets.token_hex(12)
        await self._command(
            owner, table_id, {"op": "call", "method": method, "identity": _identity_json(identity), "args": args, "reply": token}
        )
        from redis.exceptions import TimeoutError as RedisTimeout

        deadline = time.monotonic() + wait
        found = None
        while found is None and (left := deadline - time.monotonic()) > 0:
            try:  # in pieces of at most CALL_TIMEOUT, within the Redis client's read deadline; never 0 (that waits forever)
                found = await self.redis.blpop([keys.reply(token)], timeout=max(1, math.ceil(min(left, CALL_TIMEOUT))))
            except RedisTimeout:  # the client's read deadline passed just before the server's empty answer
                found = None
        if found is None:
            if await self.leases.owner(table_id) in (None, self.worker):
                return None  # the owner let the table go meanwhile (it ended, or moved here): it is answered here
            raise ApiError(503, "table", "the table's server did not answer in time; try again", {"Retry-After": "2"})
        answer = json.loads(found[1])
        if "error" in answer:
            error = answer["error"]
            raise ApiError(int(error["status"]), str(error["field"]), str(error["message"]), error.get("headers") or None)
        return cast("dict[str, Any]", answer["ok"])

    # ------------------------------------------------------------ messages
    async def open_socket(self, identity: Identity | None, address: str, table_id: str) -> Ticket | str:
        """This worker's counts first, then every worker's (:mod:`~stich.web.cluster.shared_sockets`)."""
        ticket = self.sockets.open(identity, address, table_id)
        if isinstance(ticket, str):
            return ticket
        try:
            refused = await self.shared_sockets.open(ticket, self.sockets.caps(identity, ticket))
        except BaseException:
            self.sockets.close(ticket)
            raise
        if refused is not None:
            self.sockets.close(ticket)
            return refused
        return ticket

    async def close_socket(self, ticket: Ticket) -> None:
        """Take the socket out of this worker's counts and every worker's."""
        self.sockets.close(ticket)
        await self.shared_sockets.close(ticket)

    async def allow_message(self, conn: Connection) -> bool:
        """The local budgets, and the shared ones (a remote client's worker spent those already)."""
        if not await super().allow_message(conn):
            return False
        return isinstance(conn, RemoteConnection) or await self.budgets.allow(conn.identity, conn.address)

    async def session_changed(self, session_id: int) -> None:
        """Record the change here and tell every other worker (their sockets of the session ask the database again)."""
        await super().session_changed(session_id)
        try:
            await self.redis.publish(keys.SESSIONS, str(session_id))
        except Exception:  # Redis away: the others notice within session_recheck_seconds
            log.warning("worker %s: could not tell the other workers that session %d changed", self.worker, session_id, exc_info=True)

    def session_sockets(self, session_id: int) -> list[Connection]:
        """The session's sockets on this worker: of the tables it runs, and those it relays to other workers."""
        relayed = [
            relayed.conn
            for relayed in self.relayed.values()
            if relayed.conn.identity is not None and relayed.conn.identity.session_id == session_id
        ]
        return super().session_sockets(session_id) + relayed

    async def _listen(self) -> None:
        """Deliver what owners publish on this worker's inbox to the addressed local sockets."""
        pubsub: PubSub = self.redis.pubsub()
        try:
            await pubsub.subscribe(keys.inbox(self.worker), keys.SESSIONS)
            self.sessions.everything_changed()  # what was published while not subscribed is lost
            self._subscribed.set()
            while True:
                item = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if item is None or item.get("type") != "message":
                    continue
                data = item["data"]
                if item.get("channel") == keys.SESSIONS:
                    self.sessions.changed(int(data))
                    self.end_session_sockets(int(data))
                    continue
                published = json.loads(data)
                for body in published.get("b", (published,)):  # one step's messages for this worker, in order (or one, as before)
                    self._deliver(body)
        finally:
            self._subscribed.clear()
            if self.relayed:
                log.warning("worker %s: the inbox subscription ended; %d relayed clients reconnect", self.worker, len(self.relayed))
            for relayed in list(self.relayed.values()):  # messages may have been missed: the clients resync by reconnecting
                relayed.send_away("this worker's inbox subscription ended")
            with contextlib.suppress(Exception):
                # redis-py annotates aclose() only in some releases: calling it through Any keeps mypy quiet on all of them
                await cast(Any, pubsub).aclose()

    def _deliver(self, body: dict[str, Any]) -> None:
        """Hand one message an owner published (or its order to close) to the addressed relayed sockets."""
        for client in body.get("to", ()):
            relayed = self.relayed.get(client)
            if relayed is None:
                continue
            relayed.waiting_since = None  # the owner serves it
            if "close" in body:
                relayed.send_away(f"closed by the owner {relayed.owner}", int(body["close"]))
            elif "t" in body:
                relayed.conn.send_text(body["t"])
            else:
                relayed.conn.send(body["m"])

    async def relay(self, websocket: WebSocket, identity: Identity | None, table_id: str) -> bool:
        """Serve a socket for a table another worker owns (see the module's docstring); ``False`` when nobody owns it."""
        owner = await self.leases.owner(table_id)
        if owner is None or owner == self.worker:
            return False
        if direct.follows(websocket):  # sent to the owner where it has an address (decision 0068), else relayed as before
            advertised = cast("str | None", await self.redis.get(keys.alive(owner)))
            base = direct.socket_base(advertised, websocket.headers.get("host", ""))
            if base is not None:
                await self._send_to_owner(websocket, identity, table_id, owner, base)
                return True
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)
        await websocket.accept()
        address = client_address(websocket, self.settings.trusted_proxies)
        ticket = await self.open_socket(identity, address, table_id)
        if isinstance(ticket, str) or not await self.budgets.allow(identity, address):
            why = ticket if isinstance(ticket, str) else "too many messages"
            log.warning("table %s: refused a relayed socket from %s: %s (4429)", table_id, address, why)
            await websocket.send_json(error_message(WHOLE, ticket if isinstance(ticket, str) else "too many messages; slow down"))
            await websocket.close(code=4429)
            if not isinstance(ticket, str):
                await self.close_socket(ticket)
            return True
        conn = Connection(websocket, identity, self.settings, address, self.sessions, db=self.db)  # its first message asks the database
        client = secrets.token_hex(8)
        writer = asyncio.create_task(conn.writer())
        self.relayed[client] = Relayed(conn, table_id, owner, writer, time.monotonic())  # the owner answers the attach
        attach = {"op": "attach", "conn": client, "worker": self.worker, "identity": _identity_json(identity), "address": address}
        try:
            await self._command(owner, table_id, {**attach, "invite": websocket.query_params.get("invite")})
            await self._relay_messages(conn, owner, table_id, client)
        finally:
            self.relayed.pop(client, None)
            with contextlib.suppress(Exception):  # Redis away: this worker's heartbeat lapses with it, and the count with that
                await self.close_socket(ticket)
            with contextlib.suppress(Exception):
                await self._command(owner, table_id, {"op": "detach", "conn": client})
            await conn.end(writer)
        return True

    async def _send_to_owner(self, websocket: WebSocket, identity: Identity | None, table_id: str, owner: str, base: str) -> None:
        """Tell the client where the table's owner takes sockets (``moved``) and close (:data:`~.direct.MOVED_CODE`).

        The connect counts against the shared message budget as a relayed
        socket's does (a client cannot make a worker look up owners for free).
        """
        await websocket.accept()
        address = client_address(websocket, self.settings.trusted_proxies)
        if not await self.budgets.allow(identity, address):
            log.warning("table %s: refused a socket from %s: too many messages (4429)", table_id, address)
            await websocket.send_json(error_message(WHOLE, "too many messages; slow down"))
            await websocket.close(code=4429)
            return
        log.debug("table %s: a socket sent to its owner %s at %s", table_id, owner, base)
        await websocket.send_json(direct.moved_message(base))
        await websocket.close(code=direct.MOVED_CODE)

    async def _relay_messages(self, conn: Connection, owner: str, table_id: str, client: str) -> None:
        """Check each of the client's messages here and forward those only the owner can answer."""
        websocket = conn.websocket
        with contextlib.suppress(WebSocketDisconnect):
            while not conn.kicked:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect" or conn.kicked:
                    break
                raw = message.get("text") if message.get("text") is not None else message.get("bytes")
                screened = await screen_message(conn, raw, self.allow_message, self.settings.max_message_bytes, answer_ping=False)
                if screened is None:
                    continue  # answered here, or kicked (the loop ends)
                relayed = self.relayed.get(client)
                if isinstance(screened, PingMessage) and relayed is not None and relayed.waiting_since is None:
                    relayed.waiting_since = time.monotonic()  # the owner's pong (or close) must come back
                text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                await self._command(owner, table_id, {"op": "message", "conn": client, "worker": self.worker, "text": text})

    # --------------------------------------------------------------- lobby
    async def _publish_summaries(self, runtimes: list[TableRuntime]) -> None:
        """Put the owned tables' lobby entries into Redis, for every worker's lobby (those that changed since last time)."""
        entries = {}
        for runtime in runtimes:
            entry = json.dumps(
                {
                    "summary": runtime.summary(None),
                    "invite": runtime.invite_path(),
                    "creator": runtime.creator_session_id,
                    "members": [[seat.session_id, seat.user_id] if seat.kind == "human" else None for seat in runtime.seats],
                }
            )
            if self._published.get(runtime.id) != entry:
                entries[runtime.id] = entry
        if entries:
            await self.redis.hset(keys.LOBBY, mapping=cast(Any, entries))
            self._published.update(entries)

    async def remote_summaries(self, identity: Identity | None) -> list[dict[str, Any]]:
        """Lobby summaries of the tables other workers own that ``identity`` may see (as :meth:`TableRuntime.summary` gives them)."""
        stored = await self.redis.hgetall(keys.LOBBY)
        others = [str(table_id) for table_id in stored if table_id not in self.tables]
        found = []
        for table_id, owner in zip(others, await self.leases.owners(others), strict=True):
            if owner is None:  # its worker died: the table is listed again once another worker runs it
                continue
            entry = json.loads(stored[table_id])
            summary = dict(entry["summary"])
            seat = None
            if identity is not None:
                for index, member in enumerate(entry["members"]):
                    same_account = member is not None and member[1] is not None and member[1] == identity.user_id
                    if member is not None and (member[0] == identity.session_id or same_account):
                        seat = index
                        break
            creator = identity is not None and identity.session_id == entry["creator"]
            if summary["private"] and seat is None and not creator:
                continue
            summary.update(your_seat=seat, creator=creator, invite=entry["invite"] if seat is not None or creator else None)
            found.append(summary)
        return found


def _send_away(conn: Connection, code: int = TAKEOVER_CODE) -> None:
    """Close a client's socket of a table this worker let go with ``code`` (default: the table moved, reconnect)."""
    if isinstance(conn, RemoteConnection):
        conn.finish()
        return
    conn.close_code = code
    conn.kicked = True
    conn.finish()
    asyncio.get_running_loop().create_task(_close_socket(conn.websocket, code))


async def _close_socket(websocket: WebSocket, code: int) -> None:
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            await websocket.close(code=code)


async def connect_redis(url: str) -> Redis:
    """A Redis client for ``url`` (strings decoded), checked with a ``PING``.

    Its pool waits for a free connection (up to :data:`REDIS_WAIT` s) rather
    than failing: forwarded calls hold one while they wait for the owner's
    answer, and many at once (a hundred tables opening) exceeded redis-py's
    default pool, which refuses at once.
    """
    from redis.asyncio import BlockingConnectionPool, Redis

    # The read timeout outlasts the longest blocking command (a forwarded call's BLPOP of CALL_TIMEOUT s):
    # redis-py 8 reads with a 5-s default, which ended such waits early; earlier releases had none.
    pool = BlockingConnectionPool.from_url(
        url,
        decode_responses=True,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_WAIT,
        socket_timeout=CALL_TIMEOUT + 5,
    )
    redis = Redis.from_pool(pool)
    await redis.ping()
    return redis
