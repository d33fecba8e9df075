"""The database: engine, migrations applied at start, and every query the server makes.

:class:`Database` is synchronous (SQLAlchemy 2 ORM sessions); the async parts
of the server call it through ``asyncio.to_thread`` so that a slow database
never stalls the event loop.  Each method is one short transaction.  The SQL
is dialect-neutral: SQLite by default, PostgreSQL through
``postgresql+psycopg://...``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import ColumnElement, Engine, create_engine, delete, event, false, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from stich.web.deals.ratings import RatedDeal
from stich.web.guards.names import name_key
from stich.web.storage.models import AuthSession, Deal, DealAction, DealAnalysis, GameTable, TableSeat, User, as_utc, utcnow
from stich.web.storage.ratings import RatingReads, rate_deal

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x5717C4
"""PostgreSQL advisory lock key held while the migrations run (several workers starting at once migrate one after another)."""
"""The Alembic script directory shipped in the package."""


MAX_ROW_ID = {"sqlite": 2**63 - 1}
"""The largest id an ``INTEGER`` key holds, by dialect: 64 bits on SQLite; larger ones name no row."""
MAX_INT4 = 2**31 - 1
"""The largest id an ``INTEGER`` key holds elsewhere (PostgreSQL's ``integer`` has 32 bits)."""


class NameTaken(ValueError):
    """A user name that is already registered (case-insensitively)."""


class StaleOwner(RuntimeError):
    """A write of a table's play refused: another worker took the table over since this one did (decision 0033, fencing)."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        super().__init__(f"table(s) {', '.join(table_ids)} taken over by another worker; not stored")
        self.table_ids = tuple(table_ids)


Fence = tuple[str, int]
"""A table id and the lease epoch its worker took it over at: a write carrying it is stored only while the table is still at that epoch."""
ActionRow = tuple[int, int, int, str, bool] | tuple[int, int, int, str, bool, bool]
"""A stored action: ``(deal_id, position, seat, action, stand_in)``, optionally with ``timed_out`` last."""


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored."""

    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    user_id: int | None = None
    session_id: int | None = None


@dataclass(frozen=True)
class TableRow:
    """A table as stored, with its seats in order."""

    id: str
    game: str
    game_name: str
    deals_requested: int
    private: bool
    invite_token: str
    status: str
    creator_session_id: int | None
    created_at: datetime
    seats: tuple[SeatRow, ...]
    turn_seconds: int | None = None
    """Seconds per move before a stand-in bot makes it (``None``: no turn timer)."""
    continue_seconds: int | None = None
    """Longest wait for every person's "Weiter" after a deal (``None``: see :mod:`stich.web.runtime.ready_wait`)."""
    lease_epoch: int = 0
    """How often a worker took the table over (several workers: the fencing token of its writes, :meth:`Database.take_over`)."""
    kind: str | None = None
    """The kind its creator asked for (``free``, ``list``); ``None``: derived from game and deals (issue 40, defect 7)."""
    rated: bool = False
    """Whether its deals change ratings (issue 44, decision 0055)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The table's own options (``learning``, ``replay_of``: :mod:`stich.web.deals.table_options`); stored as JSON."""


@dataclass(frozen=True)
class DealRow:
    """A deal as stored; ``actions`` are ``(seat, text)`` in order (only when asked for)."""

    id: int
    table_id: str
    number: int
    dealer: int
    seed: int
    salt: str
    commitment: str
    status: str
    record: str | None
    actions: tuple[tuple[int, str], ...] = ()
    stand_in_seats: tuple[int, ...] = ()
    """Seats a stand-in bot made one of ``actions`` for while they were away (only when the actions are asked for)."""
    timed_out_moves: tuple[tuple[int, int], ...] = ()
    """``(position, seat)`` of the actions a stand-in made because the seat's turn clock ran out (issue 40)."""
    hints: tuple[int, ...] = ()
    """Seats given a hint in this deal (learning tables: :mod:`stich.web.runtime.hints`)."""


@dataclass(frozen=True)
class PlayedDeal:
    """A finished deal one person sat in: where, when, in which seat, and its record (JSON text)."""

    deal_id: int
    table_id: str
    game: str
    """The game's registry name (``doppelkopf``...)."""
    number: int
    finished_at: datetime
    seat: int
    record: str


@dataclass(frozen=True)
class SessionRow:
    """A browser session with its user's name, if logged in."""

    id: int
    user_id: int | None
    display_name: str
    expires_at: datetime


def _seat_row(seat: TableSeat) -> SeatRow:
    return SeatRow(seat.seat, seat.kind, seat.bot, seat.name, seat.user_id, seat.session_id)


def _deal_row(deal: Deal, actions: Sequence[DealAction] = ()) -> DealRow:
    return DealRow(
        deal.id,
        deal.table_id,
        deal.number,
        deal.dealer,
        int(deal.seed),
        deal.salt,
        deal.commitment,
        deal.status,
        deal.record,
        tuple((a.seat, a.action) for a in actions),
        tuple(sorted({a.seat for a in actions if a.stand_in and not a.timed_out})),
        tuple((a.position, a.seat) for a in actions if a.timed_out),
        tuple(json.loads(deal.hints)) if deal.hints else (),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_file_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Write-ahead logging for a database file, still syncing every commit.

    In the default rollback-journal mode every commit costs several disk
    syncs (about 20 ms each on a virtual disk), and the server commits once
    per action, so the journal capped a whole server at a few dozen actions
    per second (bench/load_platform.py).  WAL needs one sync per commit and
    lets readers go on while a writer commits; ``synchronous=FULL`` keeps a
    committed action on disk even through a power cut.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, thread sharing, a busy timeout and (for a file) write-ahead logging."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", _sqlite_pragmas)
    if not memory:
        event.listen(engine, "connect", _sqlite_file_pragmas)
    return engine


class Database:
    """The server's database: one engine, migrated to the newest schema by :meth:`migrate`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock: AbstractContextManager[Any] = threading.Lock() if self.engine.dialect.name == "sqlite" else nullcontext()
        self.max_row_id = MAX_ROW_ID.get(self.engine.dialect.name, MAX_INT4)
        """The largest id this database's integer keys hold: an id above it is looked up as absent, never sent (PostgreSQL refuses it)."""
        self.ratings = RatingReads(self.engine)
        """The reads of ratings: leaderboards and profiles (:mod:`stich.web.storage.ratings`)."""

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def migrate(self) -> None:
        """Apply every Alembic migration not applied yet (run at start; idempotent)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":  # workers starting at once: one migrates, the others wait, then find it done
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def _session(self) -> Session:
        return self.sessions()

    @contextmanager
    def _write(self) -> Iterator[Session]:
        """A session for one write transaction; on SQLite the writers of this process take turns first.

        SQLite lets one writer in at a time, and a writer that finds the
        database locked sleeps in growing steps (up to 100 ms) before it tries
        again, so an unlucky writer can wait for seconds while others get in.
        Waiting on a process lock instead wakes the next writer the moment the
        previous one commits (six threads committing at once: slowest commit
        1.3-1.4 s without the lock, 0.08-0.1 s with it; see bench/README.md).
        """
        with self._write_lock, self.sessions() as db:
            yield db

    # ------------------------------------------------------------- accounts
    def create_user(self, name: str, password_hash: str) -> int:
        """Register ``name``; raises :class:`NameTaken` if the name exists (compared by :func:`~stich.web.guards.names.name_key`)."""
        with self._write() as db:
            user = User(name=name, name_key=name_key(name), password_hash=password_hash, created_at=utcnow())
            db.add(user)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                raise NameTaken(name) from None
            return user.id

    def find_user(self, name: str) -> tuple[int, str, str] | None:
        """``(id, name, password hash)`` of the account called ``name`` (any case, width or spacing), or ``None``."""
        with self._session() as db:
            user = db.scalar(select(User).where(User.name_key == name_key(name)))
            return None if user is None else (user.id, user.name, user.password_hash)

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        """Replace a password hash (after a parameter upgrade)."""
        with self._write() as db:
            db.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))
            db.commit()

    def create_session(self, token_hash: str, display_name: str, user_id: int | None, expires_at: datetime) -> int:
        """A new browser session; returns its id."""
        with self._write() as db:
            row = AuthSession(token_hash=token_hash, user_id=user_id, display_name=display_name, created_at=utcnow(), expires_at=expires_at)
            db.add(row)
            db.commit()
            return row.id

    def find_session(self, token_hash: str) -> SessionRow | None:
        """The unexpired session with this token hash, or ``None``.

        Asked on every message a player sends (the socket's session must still
        hold), so it reads four columns on a plain connection rather than
        loading an ORM object (about 15 % less CPU per call).
        """
        columns = (AuthSession.id, AuthSession.user_id, AuthSession.display_name, AuthSession.expires_at)
        with self.engine.connect() as connection:
            row = connection.execute(select(*columns).where(AuthSession.token_hash == token_hash)).first()
        if row is None or as_utc(row.expires_at) <= utcnow():
            return None
        return SessionRow(row.id, row.user_id, row.display_name, as_utc(row.expires_at))

    def update_session(self, session_id: int, *, token_hash: str, user_id: int | None, display_name: str, expires_at: datetime) -> None:
        """Give a session a new token (login rotates it), user and name."""
        with self._write() as db:
            db.execute(
                update(AuthSession)
                .where(AuthSession.id == session_id)
                .values(token_hash=token_hash, user_id=user_id, display_name=display_name, expires_at=expires_at)
            )
            db.commit()

    def delete_session(self, session_id: int) -> None:
        """End a session (logout)."""
        with self._write() as db:
            db.execute(update(TableSeat).where(TableSeat.session_id == session_id).values(session_id=None))
            db.execute(update(GameTable).where(GameTable.creator_session_id == session_id).values(creator_session_id=None))
            db.execute(delete(AuthSession).where(AuthSession.id == session_id))
            db.commit()

    # --------------------------------------------------------------- tables
    def create_table(self, table: TableRow) -> None:
        """Store a new table with its seats."""
        with self._write() as db:
            db.add(
                GameTable(
                    id=table.id,
                    game=table.game,
                    game_name=table.game_name,
                    deals_requested=table.deals_requested,
                    private=table.private,
                    invite_token=table.invite_token,
                    status=table.status,
                    creator_session_id=table.creator_session_id,
                    created_at=table.created_at,
                    turn_seconds=table.turn_seconds,
                    continue_seconds=table.continue_seconds,
                    kind=table.kind,
                    rated=table.rated,
                    table_options=json.dumps(dict(table.options), sort_keys=True) if table.options else None,
                )
            )
            db.flush()
            for seat in table.seats:
                db.add(TableSeat(table_id=table.id, **_seat_values(seat)))
            db.commit()

    def set_seats(self, table_id: str, seats: Sequence[SeatRow], status: str | None = None, fence: Fence | None = None) -> None:
        """Store the given seats (and the table's status) in one transaction (refused with :class:`StaleOwner` past ``fence``)."""
        with self._write() as db:
            _check_fences(db, () if fence is None else (fence,))
            for seat in seats:
                db.execute(
                    update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.seat == seat.seat).values(**_seat_values(seat))
                )
            if status is not None:
                db.execute(update(GameTable).where(GameTable.id == table_id).values(status=status))
            db.commit()

    def set_status(self, table_id: str, status: str, fence: Fence | None = None) -> None:
        """Change a table's status (refused with :class:`StaleOwner` past ``fence``)."""
        with self._write() as db:
            _check_fences(db, () if fence is None else (fence,))
            db.execute(update(GameTable).where(GameTable.id == table_id).values(status=status))
            db.commit()

    def _table_rows(self, db: Session, tables: Sequence[GameTable]) -> list[TableRow]:
        if not tables:
            return []
        ids = [t.id for t in tables]
        seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
        for seat in db.scalars(select(TableSeat).where(TableSeat.table_id.in_(ids)).order_by(TableSeat.table_id, TableSeat.seat)):
            seats[seat.table_id].append(_seat_row(seat))
        return [
            TableRow(
                t.id,
                t.game,
                t.game_name,
                t.deals_requested,
                t.private,
                t.invite_token,
                t.status,
                t.creator_session_id,
                as_utc(t.created_at),
                tuple(seats[t.id]),
                t.turn_seconds,
                t.continue_seconds,
                t.lease_epoch,
                t.kind,
                t.rated,
                json.loads(t.table_options) if t.table_options else {},
            )
            for t in tables
        ]

    def take_over(self, table_id: str, lock_timeout_ms: int = 2000) -> int | None:
        """Count one more takeover of an open or running table: its new lease epoch, or ``None`` (no such table, or it ended).

        Called by the worker that has just taken the table's Redis lease,
        before it reads the table's actions.  From this commit on, a write
        fenced with an older epoch is refused; a fenced write committed
        before it is among the actions the new owner reads next.  On
        PostgreSQL the update waits for such a write's row lock at most
        ``lock_timeout_ms`` (a stale owner stopped in the middle of its
        transaction holds it), then fails, so the caller gives the lease up
        and tries again later instead of waiting as long as the stall.
        """
        with self._write() as db:
            if db.get_bind().dialect.name == "postgresql":
                db.execute(text(f"SET LOCAL lock_timeout = {int(lock_timeout_ms)}"))
            query = (
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.status.in_(["open", "playing"]))
                .values(lease_epoch=GameTable.lease_epoch + 1)
                .returning(GameTable.lease_epoch)
            )
            epoch = db.execute(query).scalar_one_or_none()
            db.commit()
            return epoch

    def get_table(self, table_id: str) -> TableRow | None:
        """One table with its seats, or ``None``."""
        with self._session() as db:
            table = db.get(GameTable, table_id)
            return None if table is None else self._table_rows(db, [table])[0]

    def tables_with_status(self, statuses: Sequence[str]) -> list[TableRow]:
        """Every table whose status is one of ``statuses``, oldest first."""
        with self._session() as db:
            tables = list(db.scalars(select(GameTable).where(GameTable.status.in_(list(statuses))).order_by(GameTable.created_at)))
            return self._table_rows(db, tables)

    def table_ids_with_status(self, statuses: Sequence[str]) -> list[str]:
        """The ids of the tables whose status is one of ``statuses``, oldest first (a worker's sweep for tables nobody runs)."""
        with self._session() as db:
            query = select(GameTable.id).where(GameTable.status.in_(list(statuses))).order_by(GameTable.created_at)
            return list(db.scalars(query))

    # ---------------------------------------------------------------- deals
    def create_deal(
        self, table_id: str, number: int, dealer: int, seed: int, salt: str, commitment: str, fence: Fence | None = None
    ) -> int:
        """Store a deal that is about to be played; returns its id (refused with :class:`StaleOwner` past ``fence``)."""
        with self._write() as db:
            _check_fences(db, () if fence is None else (fence,))
            deal = Deal(
                table_id=table_id,
                number=number,
                dealer=dealer,
                seed=str(seed),
                salt=salt,
                commitment=commitment,
                status="playing",
                record=None,
                created_at=utcnow(),
                finished_at=None,
            )
            db.add(deal)
            db.commit()
            return deal.id

    def add_action(self, deal_id: int, position: int, seat: int, action: str, stand_in: bool = False) -> None:
        """Store one action the moment it is played (the key makes a duplicate position fail); ``stand_in``: a stand-in bot made it."""
        with self._write() as db:
            db.add(DealAction(deal_id=deal_id, position=position, seat=seat, action=action, created_at=utcnow(), stand_in=stand_in))
            db.commit()

    def add_actions(self, actions: Sequence[ActionRow], fences: Collection[Fence] = ()) -> None:
        """Store several actions ``(deal_id, position, seat, action, stand_in[, timed_out])`` in one transaction: all of them, or none.

        One commit (one sync to disk) for actions of several tables played at
        the same moment (:mod:`stich.web.runtime.action_log`).  ``fences``: the
        tables' lease epochs (several workers); should one have moved on,
        nothing is stored and :class:`StaleOwner` names the stale tables.
        """
        now = utcnow()
        rows = [
            {"deal_id": row[0], "position": row[1], "seat": row[2], "action": row[3], "created_at": now, "stand_in": row[4]}
            | {"timed_out": row[5:] == (True,)}
            for row in actions
        ]
        with self._write_lock, self.engine.begin() as connection:  # Core, no ORM session: half the CPU of a group commit
            _check_fences(connection, fences)
            connection.execute(insert(DealAction), rows)

    def finish_deal(self, deal_id: int, record: str, fence: Fence | None = None, rated: RatedDeal | None = None) -> bool:
        """Store the finished deal's record and, for a ``rated`` deal, its players' new ratings, in one transaction.

        Refused with :class:`StaleOwner` past ``fence``.  Returns whether the
        deal was rated now: only the write that turns the deal from
        ``playing`` to ``finished`` rates it, and the ratings' unique
        ``(deal, player)`` rows refuse a second rating
        (:func:`stich.web.storage.ratings.rate_deal`).
        """
        with self._write() as db:
            _check_fences(db, () if fence is None else (fence,))
            query = update(Deal).where(Deal.id == deal_id).values(status="finished", record=record, finished_at=utcnow())
            first = db.execute(query.where(Deal.status != "finished")).rowcount > 0  # type: ignore[attr-defined]
            if not first:
                db.execute(query)
            done = bool(first and rated is not None and rate_deal(db, deal_id, rated))
            db.commit()
            return done

    def mark_hint(self, deal_id: int, seat: int, fence: Fence | None = None) -> None:
        """Note that ``seat`` was given a hint in deal ``deal_id`` (refused with :class:`StaleOwner` past ``fence``)."""
        with self._write() as db:
            _check_fences(db, () if fence is None else (fence,))
            deal = db.get(Deal, deal_id)
            if deal is not None:
                seats = set(json.loads(deal.hints)) if deal.hints else set()
                deal.hints = json.dumps(sorted(seats | {seat}))
            db.commit()

    def get_deal(self, deal_id: int) -> DealRow | None:
        """One deal (without its actions), or ``None`` (also for an id no database integer can hold)."""
        if not 0 < deal_id <= self.max_row_id:
            return None
        with self._session() as db:
            deal = db.get(Deal, deal_id)
            return None if deal is None else _deal_row(deal)

    def deals_of(self, table_id: str, *, with_actions: bool = False) -> list[DealRow]:
        """The deals of a table in order, optionally with their actions."""
        with self._session() as db:
            deals = list(db.scalars(select(Deal).where(Deal.table_id == table_id).order_by(Deal.number)))
            actions: dict[int, list[DealAction]] = {d.id: [] for d in deals}
            if with_actions and deals:
                query = select(DealAction).where(DealAction.deal_id.in_(list(actions))).order_by(DealAction.deal_id, DealAction.position)
                for action in db.scalars(query):
                    actions[action.deal_id].append(action)
            return [_deal_row(d, actions[d.id]) for d in deals]

    # -------------------------------------------------------------- history
    def played_deals(self, user_id: int | None, session_id: int, *, limit: int | None = None, offset: int = 0) -> list[PlayedDeal]:
        """Finished deals at tables where this person (the account ``user_id``, or the session) had a seat, newest first.

        A person is matched as at the tables themselves: the same session, or
        the same account.  Should one person hold two seats of a table, the
        lower seat counts.
        """
        with self._session() as db:
            seats = (
                select(Deal.id.label("deal_id"), func.min(TableSeat.seat).label("seat"))
                .join(TableSeat, TableSeat.table_id == Deal.table_id)
                .where(Deal.status == "finished", TableSeat.kind == "human", _person(user_id, session_id))
                .group_by(Deal.id)
                .subquery()
            )
            query = (
                select(Deal, GameTable.game_name, seats.c.seat)
                .join(seats, seats.c.deal_id == Deal.id)
                .join(GameTable, GameTable.id == Deal.table_id)
                .order_by(Deal.finished_at.desc(), Deal.id.desc())
                .offset(offset)
            )
            if limit is not None:
                query = query.limit(limit)
            return [
                PlayedDeal(
                    deal.id, deal.table_id, game_name, deal.number, as_utc(deal.finished_at or deal.created_at), seat, deal.record or ""
                )
                for deal, game_name, seat in db.execute(query)
            ]

    def count_played_deals(self, user_id: int | None, session_id: int) -> int:
        """How many finished deals :meth:`played_deals` finds for this person."""
        with self._session() as db:
            query = (
                select(func.count(func.distinct(Deal.id)))
                .join(TableSeat, TableSeat.table_id == Deal.table_id)
                .where(Deal.status == "finished", TableSeat.kind == "human", _person(user_id, session_id))
            )
            return int(db.scalar(query) or 0)

    def seats_of(self, deal_id: int, user_id: int | None, session_id: int) -> list[int]:
        """The seats this person (the account ``user_id``, or the session) holds at the table of deal ``deal_id``, ascending.

        A person is matched as in :meth:`played_deals`: the same session or the same account.
        """
        if not 0 < deal_id <= self.max_row_id:
            return []
        with self._session() as db:
            query = (
                select(TableSeat.seat)
                .join(Deal, Deal.table_id == TableSeat.table_id)
                .where(Deal.id == deal_id, TableSeat.kind == "human", _person(user_id, session_id))
                .order_by(TableSeat.seat)
            )
            return [int(seat) for seat in db.scalars(query)]

    def get_analysis(self, deal_id: int, seat: int, budget: int, seed: int, version: int) -> str | None:
        """The stored analysis (JSON text) of a deal's seat with these settings, or ``None``."""
        with self._session() as db:
            query = select(DealAnalysis.analysis).where(
                DealAnalysis.deal_id == deal_id,
                DealAnalysis.seat == seat,
                DealAnalysis.budget == budget,
                DealAnalysis.seed == seed,
                DealAnalysis.version == version,
            )
            found = db.scalar(query)
            return None if found is None else str(found)

    def save_analysis(self, deal_id: int, seat: int, budget: int, seed: int, version: int, analysis: str) -> None:
        """Keep a deal's analysis; one computed meanwhile elsewhere (another worker) wins, as both hold the same numbers."""
        with self._write() as db:
            row = DealAnalysis(deal_id=deal_id, seat=seat, budget=budget, seed=seed, version=version, analysis=analysis)
            row.created_at = utcnow()
            db.add(row)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()


FENCE_QUERY = "SELECT id, lease_epoch FROM game_tables WHERE id = ANY(%s) ORDER BY id FOR SHARE"
"""The fenced tables' epochs on PostgreSQL, share-locked to the commit (psycopg's parameter style)."""


def _check_fences(db: Session | Connection, fences: Collection[Fence]) -> None:
    """Refuse (:class:`StaleOwner`) the write of ``db``'s transaction unless every fenced table is still at its epoch.

    The epochs are read with a share lock on the tables' rows (PostgreSQL
    ``FOR SHARE``), held to the commit: a takeover's
    :meth:`Database.take_over` waits for this transaction, so the write is
    either refused or committed before the new owner reads the table.  No
    fences (one process): no query at all.  SQLite has no row locks; it
    serialises whole transactions, which gives the same order.
    """
    if not fences:
        return
    ids = sorted({table_id for table_id, _epoch in fences})
    connection = db.connection() if isinstance(db, Session) else db
    if connection.dialect.name == "postgresql":  # the driver's SQL: half the CPU of a compiled select, once per group commit
        found = connection.exec_driver_sql(FENCE_QUERY, (ids,))
    else:
        query = select(GameTable.id, GameTable.lease_epoch).where(GameTable.id.in_(ids)).order_by(GameTable.id)
        found = connection.execute(query)
    epochs: dict[str, int] = {str(table_id): int(epoch) for table_id, epoch in found}
    stale = sorted({table_id for table_id, epoch in fences if epochs.get(table_id) != epoch})
    if stale:
        raise StaleOwner(stale)


def _person(user_id: int | None, session_id: int) -> ColumnElement[bool]:
    """The seat condition "this person sits here": the same session, or the same account."""
    return or_(TableSeat.session_id == session_id, TableSeat.user_id == user_id if user_id is not None else false())


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "bot": seat.bot,
        "name": seat.name,
        "user_id": seat.user_id,
        "session_id": seat.session_id,
    }
