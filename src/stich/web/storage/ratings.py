"""Ratings in the database: a rated deal's update, written once, and what the leaderboard and profiles read (issue 44).

:func:`rate_deal` runs inside the transaction that stores a deal's end
(:meth:`stich.web.storage.db.Database.finish_deal`): a deal is finished and
rated in one commit, or neither.  Exactly once, also with several workers:

* ``finish_deal`` rates only when its update turned the deal from
  ``playing`` to ``finished`` (a deal finished before is not rated again);
* each player's change is a ``rating_changes`` row, unique per deal and
  player, written in a savepoint: should a deal be rated a second time
  anyway, the unique key refuses it and only the rating is skipped;
* the players' ``ratings`` rows are created if missing (insert, on conflict
  nothing) and then read ``FOR UPDATE`` in key order on PostgreSQL, so two
  workers finishing deals with the same player (a bot spec, say) at the same
  moment update the row one after the other, never from the same old value.
  SQLite serialises whole write transactions, which gives the same order.

The reads (:class:`RatingReads`) serve ``GET /api/ratings/{game}`` and
``GET /api/players/{name}``; the leaderboard is one indexed range of
``ratings`` (``pool``, ``ordinal``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stich.web.deals.ratings import START_MU, START_SIGMA, Change, RatedDeal, changes, ordinal
from stich.web.storage.models import Deal, GameTable, Rating, RatingChange, TableSeat, User, as_utc, utcnow

log = logging.getLogger("stich.web")

_ACTIVE: ContextVar[Session | None] = ContextVar("stich_rating_reads", default=None)
"""The session of a :meth:`RatingReads.together` block in this thread (``None``: each read opens its own)."""

MAX_HISTORY = 500
"""Most history points a profile sends per pool (the newest)."""


def rate_deal(db: Session, deal_id: int, deal: RatedDeal) -> list[Change]:
    """Rate ``deal`` (stored as ``deal_id``) inside ``db``'s transaction; returns the changes, none if it was rated before."""
    now = utcnow()
    players = sorted({rated.player for rated in deal.seats()})
    first = {rated.player: rated for rated in reversed(deal.seats())}
    fresh = [
        {
            "pool": deal.pool,
            "player": player,
            "user_id": first[player].user_id,
            "bot": first[player].bot,
            "mu": START_MU,
            "sigma": START_SIGMA,
            "ordinal": ordinal(START_MU, START_SIGMA),
            "deals": 0,
            "won": 0,
            "lost": 0,
            "updated_at": now,
        }
        for player in players
    ]
    dialect = db.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    try:
        with db.begin_nested():
            db.execute(insert(Rating).values(fresh).on_conflict_do_nothing(index_elements=["pool", "player"]))
            query = select(Rating).where(Rating.pool == deal.pool, Rating.player.in_(players)).order_by(Rating.player).with_for_update()
            rows = {row.player: row for row in db.scalars(query)}
            found = changes(deal, {player: (row.mu, row.sigma) for player, row in rows.items()})
            for change in found:  # the unique key (deal, player) first: a second rating of this deal stops here
                db.add(
                    RatingChange(
                        deal_id=deal_id,
                        pool=deal.pool,
                        player=change.player,
                        user_id=change.user_id,
                        mu=change.mu,
                        sigma=change.sigma,
                        ordinal=change.ordinal,
                        outcome=change.outcome,
                        absent=change.absent,
                        created_at=now,
                    )
                )
            db.flush()
            for change in found:
                row = rows[change.player]
                row.mu, row.sigma, row.ordinal = change.mu, change.sigma, change.ordinal
                row.deals += 1
                row.won += change.outcome == "won"
                row.lost += change.outcome == "lost"
                row.updated_at = now
            db.flush()
    except IntegrityError as exc:  # rated before: the savepoint is rolled back, the deal's end stays
        log.warning("deal %s not rated again: %s", deal_id, exc.orig)
        return []
    return found


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    player: str
    name: str
    bot: str | None
    rating: float
    mu: float
    sigma: float
    deals: int
    won: int
    lost: int

    def to_json(self) -> dict[str, Any]:
        """The line as the API sends it."""
        return {
            "rank": self.rank,
            "name": self.name,
            "kind": "bot" if self.bot is not None else "person",
            "bot": self.bot,
            "rating": round(self.rating, 2),
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "deals": self.deals,
            "won": self.won,
            "lost": self.lost,
        }


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one rated deal."""

    deal_id: int
    at: datetime
    rating: float
    outcome: str
    absent: bool


@dataclass(frozen=True)
class RecentTable:
    """A public table a player sat at."""

    id: str
    game: str
    status: str
    rated: bool
    created_at: datetime
    seat: int


class RatingReads:
    """The reads of ratings: leaderboards, a player's ratings and history, recent tables and rated deals."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def together(self) -> Iterator[None]:
        """Run the reads inside this block on one session (one connection checkout: a profile makes about eight reads)."""
        with Session(self.engine) as db:
            token = _ACTIVE.set(db)
            try:
                yield
            finally:
                _ACTIVE.reset(token)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        active = _ACTIVE.get()
        if active is not None:
            yield active
            return
        with Session(self.engine) as db:
            yield db

    def leaderboard(self, pool: str, limit: int, offset: int) -> tuple[int, list[BoardRow]]:
        """``(players in the pool, the lines from rank offset + 1 on)``, best rating first (ties: more deals first, then by key)."""
        with self._session() as db:
            total = int(db.scalar(select(func.count()).select_from(Rating).where(Rating.pool == pool)) or 0)
            order = (Rating.ordinal.desc(), Rating.deals.desc(), Rating.player.desc())
            page = select(Rating.player).where(Rating.pool == pool).order_by(*order).limit(limit).offset(offset)  # the index alone
            query = (
                select(Rating, User.name)
                .outerjoin(User, User.id == Rating.user_id)
                .where(Rating.pool == pool, Rating.player.in_(page.scalar_subquery()))
                .order_by(*order)
            )
            lines = [
                BoardRow(
                    offset + i + 1,
                    row.player,
                    _shown_name(row, name),
                    row.bot,
                    row.ordinal,
                    row.mu,
                    row.sigma,
                    row.deals,
                    row.won,
                    row.lost,
                )
                for i, (row, name) in enumerate(db.execute(query))
            ]
            return total, lines

    def rank_of(self, pool: str, rating: float) -> int:
        """The rank a rating has in its pool (1 + how many rate higher)."""
        with self._session() as db:
            return 1 + int(db.scalar(select(func.count()).select_from(Rating).where(Rating.pool == pool, Rating.ordinal > rating)) or 0)

    def user_by_name(self, key: str) -> tuple[int, str, datetime] | None:
        """``(id, name, registered at)`` of the account whose name key is ``key``."""
        with self._session() as db:
            row = db.execute(select(User.id, User.name, User.created_at).where(User.name_key == key)).first()
            return None if row is None else (row.id, row.name, as_utc(row.created_at))

    def ratings_of(self, player: str) -> list[Rating]:
        """Every pool's rating of ``player``."""
        with self._session() as db:
            return list(db.scalars(select(Rating).where(Rating.player == player).order_by(Rating.pool)))

    def history(self, player: str, pool: str, limit: int = MAX_HISTORY) -> list[HistoryPoint]:
        """The newest ``limit`` ratings of ``player`` in ``pool`` after each rated deal, oldest first."""
        with self._session() as db:
            query = (
                select(RatingChange)
                .where(RatingChange.player == player, RatingChange.pool == pool)
                .order_by(RatingChange.id.desc())
                .limit(limit)
            )
            points = [HistoryPoint(c.deal_id, as_utc(c.created_at), c.ordinal, c.outcome, c.absent) for c in db.scalars(query)]
            return points[::-1]

    def recent_tables(self, user_id: int, limit: int) -> list[RecentTable]:
        """The newest public tables the account sat at (a private table is nobody else's business)."""
        with self._session() as db:
            query = (
                select(GameTable, func.min(TableSeat.seat))
                .join(TableSeat, TableSeat.table_id == GameTable.id)
                .where(TableSeat.user_id == user_id, TableSeat.kind == "human", GameTable.private.is_(False))
                .group_by(GameTable.id)
                .order_by(GameTable.created_at.desc(), GameTable.id)
                .limit(limit)
            )
            return [RecentTable(t.id, t.game_name, t.status, t.rated, as_utc(t.created_at), int(seat)) for t, seat in db.execute(query)]

    def rated_deals(self, player: str, user_id: int, limit: int) -> list[tuple[int, str, datetime, int, str]]:
        """The newest rated deals of an account: ``(deal id, game, finished at, seat, record)`` (its lowest seat at the table)."""
        with self._session() as db:
            seat = (
                select(func.min(TableSeat.seat))
                .where(TableSeat.table_id == Deal.table_id, TableSeat.user_id == user_id, TableSeat.kind == "human")
                .scalar_subquery()
            )
            query = (
                select(Deal.id, GameTable.game_name, Deal.finished_at, seat, Deal.record)
                .join(RatingChange, RatingChange.deal_id == Deal.id)
                .join(GameTable, GameTable.id == Deal.table_id)
                .where(RatingChange.player == player, Deal.status == "finished")
                .order_by(RatingChange.id.desc())
                .limit(limit)
            )
            return [
                (int(i), str(game), as_utc(at or utcnow()), int(s), str(record or "{}"))
                for i, game, at, s, record in db.execute(query)
                if s is not None
            ]


def _shown_name(row: Rating, name: str | None) -> str:
    """A leaderboard name: the account's name, or the bot's spec."""
    if row.bot is not None:
        return row.bot
    return name or "?"
