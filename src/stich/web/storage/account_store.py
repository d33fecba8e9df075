"""What an account owns in the database, for the account page: its sessions, its deletion, and the data it may download.

Kept apart from :mod:`stich.web.storage.db` (which runs the play) so that
both stay small; every function is one short transaction on the
:class:`~stich.web.storage.db.Database` it is handed.

Deleting an account anonymises rather than erases (decision 0056): every
seat it held keeps its place in the table's list with the neutral name
:data:`DELETED_PLAYER`, and every finished deal's record keeps its moves
with that name for the seat, so the other players' lists, statistics and
replays stay whole.  The account row and its sessions go.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, false, or_, select, update

from stich.web.guards.names import DELETED_PLAYER
from stich.web.storage.db import Database, TableRow
from stich.web.storage.login_sessions import hash_token
from stich.web.storage.models import AuthSession, Deal, GameTable, TableSeat, User, as_utc, utcnow


class StillSeated(RuntimeError):
    """The account still sits at open or running tables (their ids): it can leave them first."""

    def __init__(self, table_ids: list[str]) -> None:
        super().__init__(", ".join(table_ids))
        self.table_ids = table_ids


@dataclass(frozen=True)
class AccountRow:
    """An account as its owner may see it (no hash)."""

    id: int
    name: str
    created_at: datetime


def account(db: Database, user_id: int) -> AccountRow | None:
    """The account ``user_id``, or ``None``."""
    with db.sessions() as s:
        user = s.get(User, user_id)
        return None if user is None else AccountRow(user.id, user.name, as_utc(user.created_at))


def password_hash(db: Database, user_id: int) -> str | None:
    """The stored hash of the account's password, or ``None`` for no such account."""
    with db.sessions() as s:
        return s.scalar(select(User.password_hash).where(User.id == user_id))


def change_password(db: Database, user_id: int, new_hash: str, keep_session: int) -> list[int]:
    """Store a new password hash and end every other session of the account in the same transaction; the ended sessions' ids.

    An ended session gets a random token hash and expires now, as a logout
    does: its cookie stops working at once.
    """
    now = utcnow()
    with db._write() as s:
        ended = list(s.scalars(select(AuthSession.id).where(AuthSession.user_id == user_id, AuthSession.id != keep_session)))
        s.execute(update(User).where(User.id == user_id).values(password_hash=new_hash))
        for session_id in ended:
            random_hash = hash_token(secrets.token_urlsafe(32))
            s.execute(update(AuthSession).where(AuthSession.id == session_id).values(token_hash=random_hash, expires_at=now))
        s.commit()
        return ended


def _seated(user_id: int, session_ids: list[int]) -> ColumnElement[bool]:
    """The seat condition "held by the account or one of its sessions"."""
    return or_(TableSeat.user_id == user_id, TableSeat.session_id.in_(session_ids) if session_ids else false())


def delete_account(db: Database, user_id: int) -> list[int]:
    """Delete the account, anonymising its seats and finished records; the ids of its sessions (now gone).

    Refused with :class:`StillSeated` while it holds a seat at an open or
    running table (the live table keeps its seats in memory; leaving first
    keeps the two in step).  Seats held by the account or by one of its
    sessions count, as at the tables themselves.
    """
    with db._write() as s:
        sessions = list(s.scalars(select(AuthSession.id).where(AuthSession.user_id == user_id)))
        mine = _seated(user_id, sessions)
        query = select(TableSeat.table_id, TableSeat.seat, GameTable.status).join(GameTable).where(TableSeat.kind == "human", mine)
        seats = list(s.execute(query))
        live = sorted({table_id for table_id, _seat, status in seats if status != "finished"})
        if live:
            raise StillSeated(live)
        by_table: dict[str, set[int]] = {}
        for table_id, seat, _status in seats:
            by_table.setdefault(table_id, set()).add(seat)
        if by_table:
            deals = s.scalars(select(Deal).where(Deal.table_id.in_(list(by_table)), Deal.record.is_not(None)))
            for deal in deals:
                deal.record = _anonymised(deal.record or "", by_table[deal.table_id])
        s.execute(update(TableSeat).where(TableSeat.kind == "human", mine).values(name=DELETED_PLAYER, user_id=None, session_id=None))
        if sessions:
            s.execute(update(GameTable).where(GameTable.creator_session_id.in_(sessions)).values(creator_session_id=None))
            s.execute(delete(AuthSession).where(AuthSession.id.in_(sessions)))
        s.execute(delete(User).where(User.id == user_id))
        s.commit()
        return sessions


def _anonymised(record: str, seats: set[int]) -> str:
    """A record's JSON text with the names of ``seats`` replaced by :data:`DELETED_PLAYER` (nothing else changes)."""
    data = json.loads(record)
    players = data.get("players")
    if isinstance(players, list):
        for seat in seats:
            if 0 <= seat < len(players):
                players[seat] = DELETED_PLAYER
    return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True)
class OwnDeal:
    """A deal at a table the account sat at, with its seat there."""

    id: int
    table_id: str
    number: int
    status: str
    seat: int
    record: str | None
    finished_at: datetime | None


def own_tables(db: Database, user_id: int, session_id: int) -> tuple[list[tuple[TableRow, int]], list[OwnDeal]]:
    """The tables this person (account or session) sat at, each with its lowest such seat, and all their deals."""
    with db.sessions() as s:
        mine = or_(TableSeat.user_id == user_id, TableSeat.session_id == session_id)
        seat_of: dict[str, int] = {}
        for table_id, seat in s.execute(select(TableSeat.table_id, TableSeat.seat).where(TableSeat.kind == "human", mine)):
            seat_of[table_id] = min(seat, seat_of.get(table_id, seat))
        tables = list(s.scalars(select(GameTable).where(GameTable.id.in_(list(seat_of))).order_by(GameTable.created_at)))
        rows = db._table_rows(s, tables)
        deals = [
            OwnDeal(d.id, d.table_id, d.number, d.status, seat_of[d.table_id], d.record, as_utc(d.finished_at) if d.finished_at else None)
            for d in s.scalars(select(Deal).where(Deal.table_id.in_(list(seat_of))).order_by(Deal.table_id, Deal.number))
        ]
        return [(row, seat_of[row.id]) for row in rows], deals
