"""What people do with each other around the tables (issue 44): Revanche links, friends lists and invite notices.

Every function is one short transaction on the
:class:`~stich.web.storage.db.Database` it is handed; all state lives in the
database, so every worker sees the same (decision 0056).

* A finished table's Revanche is claimed with one conditional update
  (:func:`claim_rematch`): of two players asking at the same moment, on any
  worker, exactly one creates the new table and the other is sent to it.
* A friendship is one direction (``user_id`` lists ``friend_id``); adding
  someone needs no consent, since it only shows the adder when the friend is
  online and at which table they may see anyway.
* An invite notice names a table, who invited, the person invited (an
  account, or a guest's session) and optionally the seat kept for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, false, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from stich.web.guards.names import name_key
from stich.web.storage.db import Database, TableRow
from stich.web.storage.models import Friendship, GameTable, TableInvite, TableSeat, User, as_utc, utcnow

MAX_INVITES_PER_PERSON = 50
"""Most invite notices one person holds; the oldest go first (nobody can flood another's list)."""


# ------------------------------------------------------------------ Revanche
def claim_rematch(db: Database, table_id: str, new_id: str) -> bool:
    """Mark ``new_id`` as the Revanche of the finished table ``table_id`` unless one is marked already; whether this call did."""
    with db._write() as s:
        query = (
            update(GameTable)
            .where(GameTable.id == table_id, GameTable.status == "finished", GameTable.rematch_id.is_(None))
            .values(rematch_id=new_id)
        )
        done = s.execute(query).rowcount == 1  # type: ignore[attr-defined]
        s.commit()
        return bool(done)


def release_rematch(db: Database, table_id: str, new_id: str) -> None:
    """Undo :func:`claim_rematch` (the new table could not be created), if the mark is still ``new_id``."""
    with db._write() as s:
        s.execute(update(GameTable).where(GameTable.id == table_id, GameTable.rematch_id == new_id).values(rematch_id=None))
        s.commit()


def rematch_of(db: Database, table_id: str) -> str | None:
    """The id of the Revanche table of ``table_id``, or ``None``."""
    with db.sessions() as s:
        return s.scalar(select(GameTable.rematch_id).where(GameTable.id == table_id))


# ------------------------------------------------------------------ friends
@dataclass(frozen=True)
class Friend:
    """An account on someone's friends list."""

    user_id: int
    name: str
    since: datetime


def find_account(db: Database, name: str) -> tuple[int, str] | None:
    """``(id, name)`` of the account called ``name`` (compared by name key), or ``None``."""
    with db.sessions() as s:
        row = s.execute(select(User.id, User.name).where(User.name_key == name_key(name))).first()
        return None if row is None else (int(row[0]), str(row[1]))


def add_friend(db: Database, user_id: int, friend_id: int) -> bool:
    """Put ``friend_id`` on ``user_id``'s list; whether it was new (already there: ``False``, nothing changes)."""
    with db._write() as s:
        s.add(Friendship(user_id=user_id, friend_id=friend_id, created_at=utcnow()))
        try:
            s.commit()
        except IntegrityError:
            s.rollback()
            return False
        return True


def remove_friend(db: Database, user_id: int, friend_id: int) -> bool:
    """Take ``friend_id`` off ``user_id``'s list; whether it was there."""
    with db._write() as s:
        gone = s.execute(delete(Friendship).where(Friendship.user_id == user_id, Friendship.friend_id == friend_id)).rowcount  # type: ignore[attr-defined]
        s.commit()
        return bool(gone)


def friends_of(db: Database, user_id: int) -> list[Friend]:
    """``user_id``'s friends list, by name."""
    with db.sessions() as s:
        query = (
            select(User.id, User.name, Friendship.created_at)
            .join(Friendship, Friendship.friend_id == User.id)
            .where(Friendship.user_id == user_id)
            .order_by(User.name_key)
        )
        return [Friend(int(i), str(n), as_utc(c)) for i, n, c in s.execute(query)]


def count_friends(db: Database, user_id: int) -> int:
    """How many friends ``user_id`` lists."""
    with db.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(Friendship).where(Friendship.user_id == user_id)) or 0)


# ------------------------------------------------------------------ invites
@dataclass(frozen=True)
class Invite:
    """An invite notice as its receiver sees it."""

    id: int
    table_id: str
    from_name: str
    seat: int | None
    created_at: datetime


def add_invite(db: Database, table_id: str, from_name: str, to_user_id: int | None, to_session_id: int | None, seat: int | None) -> int:
    """Store an invite notice (replacing one to the same person for the same table); its id.

    The receiver keeps at most :data:`MAX_INVITES_PER_PERSON` notices: the oldest beyond go.
    """
    assert (to_user_id is None) != (to_session_id is None)
    with db._write() as s:
        mine = TableInvite.to_user_id == to_user_id if to_user_id is not None else TableInvite.to_session_id == to_session_id
        s.execute(delete(TableInvite).where(TableInvite.table_id == table_id, mine))
        invite = TableInvite(
            table_id=table_id, from_name=from_name, to_user_id=to_user_id, to_session_id=to_session_id, seat=seat, created_at=utcnow()
        )
        s.add(invite)
        s.flush()
        kept = select(TableInvite.id).where(mine).order_by(TableInvite.id.desc()).limit(MAX_INVITES_PER_PERSON)
        s.execute(delete(TableInvite).where(mine, TableInvite.id.not_in(kept.scalar_subquery())))
        s.commit()
        return invite.id


def _to(user_id: int | None, session_id: int) -> ColumnElement[bool]:
    """The invite condition "to this person": their session, or their account."""
    return or_(TableInvite.to_session_id == session_id, TableInvite.to_user_id == user_id if user_id is not None else false())


def invites_for(db: Database, user_id: int | None, session_id: int) -> list[Invite]:
    """The invite notices to this person (account or session) at tables still open or running, newest first."""
    with db.sessions() as s:
        query = (
            select(TableInvite)
            .join(GameTable, GameTable.id == TableInvite.table_id)
            .where(_to(user_id, session_id), GameTable.status.in_(["open", "playing"]))
            .order_by(TableInvite.id.desc())
        )
        return [Invite(i.id, i.table_id, i.from_name, i.seat, as_utc(i.created_at)) for i in s.scalars(query)]


def take_invite(db: Database, invite_id: int, user_id: int | None, session_id: int) -> Invite | None:
    """Remove the invite notice ``invite_id`` of this person and return it, or ``None`` (not theirs, or gone)."""
    if not 0 < invite_id <= db.max_row_id:
        return None
    with db._write() as s:
        invite = s.scalar(select(TableInvite).where(TableInvite.id == invite_id, _to(user_id, session_id)))
        if invite is None:
            return None
        found = Invite(invite.id, invite.table_id, invite.from_name, invite.seat, as_utc(invite.created_at))
        s.delete(invite)
        s.commit()
        return found


def find_invite(db: Database, invite_id: int, user_id: int | None, session_id: int) -> Invite | None:
    """The invite notice ``invite_id`` if it is to this person, else ``None``."""
    if not 0 < invite_id <= db.max_row_id:
        return None
    with db.sessions() as s:
        invite = s.scalar(select(TableInvite).where(TableInvite.id == invite_id, _to(user_id, session_id)))
        return None if invite is None else Invite(invite.id, invite.table_id, invite.from_name, invite.seat, as_utc(invite.created_at))


def seats_of_accounts(db: Database, user_ids: list[int]) -> dict[int, list[TableRow]]:
    """The open and running tables each of the accounts ``user_ids`` sits at (oldest first)."""
    if not user_ids:
        return {}
    with db.sessions() as s:
        query = (
            select(TableSeat.user_id, TableSeat.table_id)
            .join(GameTable, GameTable.id == TableSeat.table_id)
            .where(TableSeat.kind == "human", TableSeat.user_id.in_(user_ids), GameTable.status.in_(["open", "playing"]))
        )
        pairs = [(int(u), str(t)) for u, t in s.execute(query) if u is not None]
        tables = list(s.scalars(select(GameTable).where(GameTable.id.in_({t for _u, t in pairs})).order_by(GameTable.created_at)))
        rows = {row.id: row for row in db._table_rows(s, tables)}
    found: dict[int, list[TableRow]] = {}
    for user_id, table_id in pairs:
        found.setdefault(user_id, []).append(rows[table_id])
    for listed in found.values():
        listed.sort(key=lambda row: row.created_at)
    return found
