"""Database models (SQLAlchemy 2, dialect-neutral: SQLite and PostgreSQL).

The schema is created and changed only by the Alembic migrations in
``stich/web/storage/migrations``; a test checks that these models and the migrations
agree.  Seeds are 64-bit unsigned integers, wider than SQL's ``BIGINT``, so
they are stored as decimal text.  Times are stored in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time in UTC (timezone-aware)."""
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """A stored time as timezone-aware UTC (SQLite hands naive values back)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


NAME_KEY_LENGTH = 96
"""Room for a name's key: case folding can make a 24-character name longer (``ß`` becomes ``ss``)."""

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
}
"""Constraint names, so that migrations can name what they create and later change it."""


class Base(DeclarativeBase):
    """Base class of every model."""

    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """A registered account."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH), unique=True)
    """:func:`stich.web.guards.names.name_key` of the name: two accounts may not differ only in case, width or spacing."""
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuthSession(Base):
    """A browser session: a guest, or a logged-in user.  The cookie holds a token; only its SHA-256 is stored."""

    __tablename__ = "auth_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    display_name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    """A table: a configured game, its seats and a number of deals (a list)."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(1000))
    """The canonical game string, e.g. ``doppelkopf(preset=ddv)``."""
    game_name: Mapped[str] = mapped_column(String(32))
    deals_requested: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean)
    invite_token: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for players), ``playing`` or ``finished``."""
    creator_session_id: Mapped[int | None] = mapped_column(ForeignKey("auth_sessions.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds a person has for each move before a stand-in bot makes it; ``NULL``: no turn timer."""
    continue_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds the evaluation waits at most for every person's "Weiter"; ``NULL``: see :mod:`stich.web.runtime.ready_wait`."""
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How often another worker took the table over (several workers: a write checks it, fencing a stale owner; decision 0033)."""
    kind: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The kind its creator asked for, ``free`` or ``list``; ``NULL``: derived from game and deals (issue 40, defect 7)."""
    table_options: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The table's own options as a JSON object (``learning``, ``replay_of``; decision 0059); ``NULL``: none."""


class TableSeat(Base):
    """One seat of a table: empty, a person (by user or by session) or a bot."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``empty``, ``human`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(32))
    name: Mapped[str | None] = mapped_column(String(40))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    session_id: Mapped[int | None] = mapped_column(ForeignKey("auth_sessions.id", ondelete="SET NULL"))


class Deal(Base):
    """One deal of a table: its fairness commitment, and its record once finished."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_deals_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """Position in the table's list, from 0 (thrown-in deals count)."""
    dealer: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(20))
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    """``playing`` or ``finished``."""
    record: Mapped[str | None] = mapped_column(Text)
    """The deal record (``stich.core.records`` format) as JSON text, once finished."""
    hints: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Seats given a hint in this deal as a JSON list (learning tables, decision 0059); ``NULL``: none."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DealAction(Base):
    """One action of a deal, stored as it happens so that a restart can replay the deal."""

    __tablename__ = "deal_actions"

    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the deal's first action."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether a stand-in bot made the action for its player (the record's ``meta.stand_in_seats``, unless ``timed_out``)."""
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the stand-in made it because a present player's turn clock ran out (the record's ``meta.timed_out_moves``)."""
