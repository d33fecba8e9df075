"""Every table this server process runs: loading them at start, creating, finding, the table caps, and shutdown.

The composition root (:func:`stich.web.app.create_app`) builds one :class:`TableManager` (or, with
several workers, :class:`~stich.web.cluster.manager.ClusterTableManager`, which builds on it) with the
settings and the database, and hands it to the API through :class:`~stich.web.api.services.Services`.
Each :class:`~stich.web.runtime.table.TableRuntime` gets its manager as the
:class:`~stich.web.runtime.table.TableHost` it reports to.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import WebSocket

from stich.errors import StichError
from stich.web.guards.socket_limits import SocketLimits, Ticket
from stich.web.guards.table_caps import Owner, check_bot_level, check_count, is_search_bot
from stich.web.identity import Identity
from stich.web.runtime.action_log import ActionLog
from stich.web.runtime.bot_pool import BotPool, BotThinker
from stich.web.runtime.connection import Connection
from stich.web.runtime.seats import table_bot_spec
from stich.web.runtime.session_watch import SessionWatch
from stich.web.runtime.stopping import stop_tasks
from stich.web.runtime.table import TableRuntime
from stich.web.settings import Settings
from stich.web.storage.db import Database, TableRow
from stich.web.storage.tournaments import link_of_table

log = logging.getLogger("stich.web")


class TableManager:
    """Every table this server process runs, by id."""

    shared = False
    """Whether other workers run tables too (:mod:`stich.web.cluster`): then a table missing here may be theirs."""

    def __init__(self, settings: Settings, db: Database, bots: BotThinker | None = None) -> None:
        self.settings = settings
        self.db = db
        self.tables: dict[str, TableRuntime] = {}
        self.bots: BotThinker = bots if bots is not None else BotPool(settings.bot_workers, nice=settings.bot_nice)
        """Where the bots think (closed by :meth:`stop`)."""
        self.actions = ActionLog(db)
        """Where played actions are stored, committed in groups (:mod:`stich.web.runtime.action_log`)."""
        self.sockets = SocketLimits(settings)
        """Open WebSockets and message budgets per client, address and table."""
        self.sessions = SessionWatch(settings.session_recheck_seconds)
        """Login sessions changed lately, so that sockets need not ask the database on every message (:meth:`session_changed`)."""
        self._being_created: list[Owner] = []
        """Creators of tables being stored right now (they count towards the caps already)."""

    def load(self) -> None:
        """Load the open and running tables from the database, replaying the running ones."""
        for row in self.db.tables_with_status(["open", "playing"]):
            self.load_table(row)

    def load_table(self, row: TableRow) -> TableRuntime:
        """Load one open or running table (replaying its stored actions) into this process; its driver is not started yet."""
        runtime = TableRuntime(self, row)
        runtime.duplicate = link_of_table(self.db, row.id)
        if row.status == "playing":
            try:
                runtime.restore(self.db.deals_of(row.id, with_actions=True))
            except (StichError, ValueError, KeyError) as exc:
                runtime.broken = str(exc)
                log.error("table %s cannot be resumed: %s", row.id, exc)
        self.tables[row.id] = runtime
        return runtime

    async def open_socket(self, identity: Identity | None, address: str, table_id: str) -> Ticket | str:
        """Count a new table socket (:meth:`SocketLimits.open`; several workers: on every worker); a ticket, or why it is refused."""
        return self.sockets.open(identity, address, table_id)

    async def close_socket(self, ticket: Ticket) -> None:
        """A socket counted by :meth:`open_socket` has closed."""
        self.sockets.close(ticket)

    async def allow_message(self, conn: Connection) -> bool:
        """Spend one message of ``conn``'s client and address budgets (:mod:`stich.web.guards.socket_limits`; shared with Redis)."""
        return self.sockets.allow_message(conn.identity, conn.address)

    async def claim(self, table_id: str) -> TableRuntime | None:
        """Take over a table no process runs (several workers: :mod:`stich.web.cluster`); one process runs them all, so ``None``."""
        return None

    async def relay(self, websocket: WebSocket, identity: Identity | None, table_id: str) -> bool:
        """Serve a table socket for a table another worker runs (:mod:`stich.web.cluster`); whether it did (one process: never)."""
        return False

    async def forward(
        self, table_id: str, method: str, identity: Identity | None, args: dict[str, Any], wait: float = 10.0
    ) -> dict[str, Any] | None:
        """Carry out a REST call (``join``, ``leave``, ``bots``, ``summary``, ``hint``) on the table's worker; ``None``: nobody runs it.

        ``wait``: seconds the answer may take.
        """
        return None

    async def remote_summaries(self, identity: Identity | None) -> list[dict[str, Any]]:
        """Lobby summaries of the tables other workers run (one process: none)."""
        return []

    def start(self) -> None:
        """Start every table's driver (needs the running event loop)."""
        for runtime in self.tables.values():
            runtime.start_driver()

    async def stop(self) -> None:
        """Stop every driver and close every client (server shutdown)."""
        await stop_tasks(rt.driver for rt in self.tables.values() if rt.driver is not None)
        for runtime in self.tables.values():
            for conn in list(runtime.connections):
                conn.finish()
        await self.bots.close()

    async def session_changed(self, session_id: int) -> None:
        """A session ended or got a new token (the database has it already): its sockets here are closed (4401) at once.

        Any other socket that may hold it asks the database again at its next
        message (:class:`~stich.web.runtime.session_watch.SessionWatch`).
        """
        self.sessions.changed(session_id)
        self.end_session_sockets(session_id)

    def end_session_sockets(self, session_id: int) -> None:
        """Close every socket of this process opened for session ``session_id`` (:meth:`Connection.session_ended`)."""
        for conn in self.session_sockets(session_id):
            log.info("a socket of session %d closed: the session ended or got a new token", session_id)
            conn.session_ended()

    def session_sockets(self, session_id: int) -> list[Connection]:
        """The sockets connected to this process for session ``session_id`` (clients of other workers are theirs to close)."""
        return [
            conn
            for runtime in self.tables.values()
            for conn in runtime.connections
            if not conn.remote and conn.identity is not None and conn.identity.session_id == session_id
        ]

    def get(self, table_id: str) -> TableRuntime | None:
        """The running or open table ``table_id``, or ``None``."""
        return self.tables.get(table_id)

    def lost_table(self, runtime: TableRuntime) -> None:
        """A write of ``runtime`` was refused as stale (:class:`~stich.web.storage.db.StaleOwner`): another worker runs the table now.

        One process fences nothing, so this does not happen there; several
        workers (:mod:`stich.web.cluster`) let the table go.
        """
        log.error("table %s: a write was refused as stale, but this process fences nothing", runtime.id)

    def anonymise_finished(self, user_id: int, session_ids: list[int], name: str) -> int:
        """Rename the seats of a deleted account at the finished tables this process still holds (clients left on them); how many.

        The stored seats and records are anonymised by the deletion itself
        (:mod:`stich.web.storage.account_store`); a finished table stays in
        memory while somebody still watches it, and its summary is served from
        there.  Open and running tables never hold a deleted account (the
        deletion is refused while it sits at one).
        """
        renamed = 0
        for runtime in self.tables.values():
            if runtime.status != "finished":
                continue
            for seat in runtime.seats:
                if seat.kind == "human" and (seat.user_id == user_id or seat.session_id in session_ids):
                    seat.name, seat.user_id, seat.session_id = name, None, None
                    renamed += 1
        return renamed

    def forget(self, runtime: TableRuntime) -> None:
        """Drop a finished table with no clients left."""
        if self.tables.get(runtime.id) is runtime:
            del self.tables[runtime.id]
            self.bots.forget(runtime.id)

    def _unfinished(self, besides: TableRuntime | None = None) -> list[TableRuntime]:
        return [runtime for runtime in self.tables.values() if runtime.status != "finished" and runtime is not besides]

    def check_new_table(self, owner: Owner, field: str = "tables") -> None:
        """Refuse (429) a new table when ``owner``'s person or address has its cap of unfinished tables."""
        settings = self.settings
        owners = [runtime.creator for runtime in self._unfinished()] + self._being_created
        check_count(owners, owner, settings.max_tables_per_person, settings.max_tables_per_address, field, "tables")

    def check_search_tables(self, owner: Owner, field: str, besides: TableRuntime | None = None) -> None:
        """Refuse (429, naming ``field``) one more table with search bots for ``owner``'s person or address."""
        settings = self.settings
        owners = [runtime.search_owner for runtime in self._unfinished(besides)]
        per_person, per_address = settings.max_search_tables_per_person, settings.max_search_tables_per_address
        check_count(owners, owner, per_person, per_address, field, "tables with search bots")

    async def count_search_table(self, runtime: TableRuntime, owner: Owner, field: str) -> None:
        """Count ``runtime`` as ``owner``'s table with search bots where other workers see it (429 naming ``field`` past the cap).

        One process: nothing to do, :meth:`check_search_tables` counted the
        process's tables; several workers count in Redis
        (:mod:`stich.web.cluster.shared_caps`).
        """

    def uncount_search_table(self, runtime: TableRuntime) -> None:
        """Take back :meth:`count_search_table` (seating the bot failed); one process: nothing to do."""

    def table_finished(self, runtime: TableRuntime) -> None:
        """The table ended: it no longer counts against anybody (one process counts only unfinished tables anyway)."""

    async def create(
        self, row: TableRow, identity: Identity | None = None, address: str | None = None, bots: str | None = None
    ) -> TableRuntime:
        """Store a new table of ``identity`` (asking from the client ``address``) and start running it; ``bots`` fill its empty seats.

        Refused before anything is stored past the caps of
        :mod:`stich.web.guards.table_caps`: 429 ``tables`` past the creator's
        unfinished tables; for ``bots``, 403 ``bots`` for a level above the
        creator's and 429 ``bots`` past the tables with search bots.  The
        table counts from the moment it is checked (while it is stored,
        through ``_being_created``), so that requests at the same time cannot
        all slip under the cap.
        """
        creator = Owner.of(identity, address) if identity is not None else None
        if creator is not None:
            assert identity is not None
            if bots is not None:
                spec = table_bot_spec(bots, "bots")
                check_bot_level(self.settings, spec, identity, "bots")
                if is_search_bot(spec):
                    self.check_search_tables(creator, "bots")
            self.check_new_table(creator)
            self._being_created.append(creator)
        try:
            await asyncio.to_thread(self.db.create_table, row)
        finally:
            if creator is not None:
                self._being_created.remove(creator)
        runtime = TableRuntime(self, row, creator)
        self.tables[row.id] = runtime
        runtime.start_driver()
        if bots is not None and identity is not None and any(seat.kind == "empty" for seat in runtime.seats):
            await runtime.add_bots(identity, bots, None, creator)
        return runtime
