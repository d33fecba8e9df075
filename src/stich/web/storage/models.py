"""Database models (SQLAlchemy 2, dialect-neutral: SQLite and PostgreSQL).

The schema is created and changed only by the Alembic migrations in
``stich/web/storage/migrations``; a test checks that these models and the migrations
agree.  Seeds are 64-bit unsigned integers, wider than SQL's ``BIGINT``, so
they are stored as decimal text.  Times are stored in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, MetaData, String, Text, UniqueConstraint, false
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
    rematch_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The table this finished table's "Revanche" opened (issue 44), set once; ``NULL``: none yet."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether its deals change ratings (issue 44, decision 0055): asked for at creation, accounts and bots only."""
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
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    """Indexed since ``0008_ratings``: a profile lists the tables an account sat at."""
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


class Friendship(Base):
    """``user_id`` has ``friend_id`` on their friends list (one row per direction; issue 44)."""

    __tablename__ = "friendships"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableInvite(Base):
    """An invite notice to a table for one person: an account (``to_user_id``) or a guest's session (``to_session_id``)."""

    __tablename__ = "table_invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    from_name: Mapped[str] = mapped_column(String(40))
    to_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    to_session_id: Mapped[int | None] = mapped_column(ForeignKey("auth_sessions.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat kept for the invited person (a Revanche: their seat before), or ``NULL``: any free seat."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


PLAYER_KEY_LENGTH = 48
"""Room for a rated player's key: ``user:ID`` or ``bot:SPEC`` (a spec has at most 32 characters)."""


class Rating(Base):
    """A player's current rating in one pool (a game, and for Doppelkopf its rules family; decision 0055)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool_ordinal", "pool", "ordinal", "deals", "player"),)
    """The leaderboard's order, so that a page is one range of the index (no sort, and an offset skips index entries only)."""

    pool: Mapped[str] = mapped_column(String(48), primary_key=True)
    """``doppelkopf:ddv``, ``doppelkopf:house``, ``tapp_tarock``..."""
    player: Mapped[str] = mapped_column(String(PLAYER_KEY_LENGTH), primary_key=True)
    """``user:ID`` for an account, ``bot:SPEC`` for a bot spec."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """mu - 3 sigma, the rating shown and ranked by."""
    deals: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    """One player's rating after one rated deal: the history, and the proof that the deal was rated once (unique per deal and player)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("deal_id", "player", name="uq_rating_changes_deal_player"),
        Index("ix_rating_changes_player_pool", "player", "pool", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(48))
    player: Mapped[str] = mapped_column(String(PLAYER_KEY_LENGTH))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    outcome: Mapped[str] = mapped_column(String(8))
    """``won``, ``lost`` or ``draw`` (an absence counts as ``lost``: decision 0055)."""
    absent: Mapped[bool] = mapped_column(Boolean)
    """Whether a stand-in moved for the absent person in this deal."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DealAnalysis(Base):
    """The analysis of one seat of a finished deal (issue 43, :mod:`stich.analysis`), kept with the deal once computed.

    Keyed by what determines its numbers: the seat, the budget (worlds per
    decision), the seed and the analysis version, so that a changed analysis
    is computed afresh rather than served stale.
    """

    __tablename__ = "deal_analyses"
    __table_args__ = (UniqueConstraint("deal_id", "seat", "budget", "seed", "version", name="uq_deal_analyses_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    budget: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    """:data:`stich.analysis.ANALYSIS_VERSION` of the code that computed it."""
    analysis: Mapped[str] = mapped_column(Text)
    """The analysis as JSON text (:meth:`stich.analysis.Analysis.to_json`)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Tournament(Base):
    """A duplicate tournament: every one of its tables plays the same deals in the same seats (decision 0057)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(1000))
    """The canonical game string every table plays."""
    game_name: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str | None] = mapped_column(String(8), nullable=True)
    deals: Mapped[int] = mapped_column(Integer)
    tables: Mapped[int] = mapped_column(Integer)
    bots: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The bot that fills the seats nobody took at the start; ``NULL``: tables wait for people."""
    start_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the tables start (empty seats get the bot); ``NULL``: each table starts when it is full."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (taking entries), ``running`` (started: empty seats filled) or ``finished`` (every table finished)."""
    organiser_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    organiser_name: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentDeal(Base):
    """A deal every table of a tournament plays: its seed, committed before the first table deals it."""

    __tablename__ = "tournament_deals"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(20))
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))


class TournamentTable(Base):
    """A table of a tournament, at its position (0, 1, ...)."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), unique=True)


class TournamentResult(Base):
    """One finished deal of a tournament table: the entries its list booked (the standings are summed from these rows)."""

    __tablename__ = "tournament_results"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"), unique=True)
    seed: Mapped[str] = mapped_column(String(20))
    dealer: Mapped[int] = mapped_column(Integer)
    scores: Mapped[str] = mapped_column(String(200))
    """The list's entries for this deal, one per seat, as a JSON array."""
    players: Mapped[str] = mapped_column(String(400))
    """Who sat at each seat, as a JSON array of names."""
