"""Ratings for everyone to read: a leaderboard per game and a player's profile (issue 44, decision 0055).

* ``GET /api/ratings`` – the pools that have a leaderboard (a game, and for
  Doppelkopf its rules family);
* ``GET /api/ratings/{game}?family=&limit=&offset=`` – one pool's players,
  best first (people and bot specs: each bot spec is a player of its own);
* ``GET /api/players/{name}`` – an account's ratings per pool with their
  history points, statistics of its rated deals and its recent public
  tables; ``bot:SPEC`` (``bot:heuristic``) is a bot's profile.  A name never
  holds a colon (:data:`stich.web.guards.names.NAME_RULE`), so the two never
  meet.

Everything here is read from finished deals and stored tables: no running
deal's hand, talon or seed is in any answer.  The limits are those of the
other endpoints: a name follows the name rule (else 404), a page holds at
most :data:`MAX_PAGE` lines, and every query parameter is bounded.  A
profile reads up to :data:`STATS_DEALS` records; it is answered from memory
for :data:`PROFILE_SECONDS` after it was read, so that asking for one profile
again and again costs one read per period.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from stich.core.registry import game_names
from stich.web.api.history import game_stats
from stich.web.api.services import services
from stich.web.deals.ratings import START_MU, START_SIGMA, families, game_pools, ordinal, pool_name
from stich.web.guards.names import follows_rule, name_key, normalise
from stich.web.protocol import ApiError
from stich.web.runtime.seats import MAX_BOT_SPEC
from stich.web.storage.db import Database, PlayedDeal
from stich.web.storage.models import Rating

router = APIRouter(prefix="/api", tags=["ratings"])

MAX_PAGE = 100
"""Most lines one leaderboard page holds (``limit``)."""
RECENT_TABLES = 10
"""Recent public tables a profile lists."""
STATS_DEALS = 200
"""Newest rated deals a profile's statistics are computed from (each record is read: about 0.1 ms a deal)."""
PROFILE_SECONDS = 3.0
"""How long this process answers a profile again from memory: anybody may ask for any profile as often as they like."""
PROFILES_KEPT = 512
"""Most profiles kept in memory at once (the oldest go first)."""


class _Recent:
    """Profiles answered in the last :data:`PROFILE_SECONDS`, by name: a client hammering one profile costs one read per period."""

    def __init__(self) -> None:
        self.entries: OrderedDict[str, tuple[float, dict[str, Any] | None]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        with self.lock:
            found = self.entries.get(key)
            if found is None or time.monotonic() - found[0] > PROFILE_SECONDS:
                return False, None
            return True, found[1]

    def put(self, key: str, value: dict[str, Any] | None) -> None:
        with self.lock:
            self.entries[key] = (time.monotonic(), value)
            self.entries.move_to_end(key)
            while len(self.entries) > PROFILES_KEPT:
                self.entries.popitem(last=False)


def _recent(request: Request) -> _Recent:
    """This app's recent profiles (one store per app: two servers in one process never share answers)."""
    state = request.app.state
    recent: _Recent | None = getattr(state, "recent_profiles", None)
    if recent is None:
        recent = state.recent_profiles = _Recent()
    return recent


def _pool(game: str, family: str | None) -> tuple[str, str]:
    """The ``(family, pool)`` asked for, or 404 ``game`` / 422 ``family`` naming what there is."""
    if game not in game_names():
        raise ApiError(404, "game", f"unknown game {game!r}; available: {', '.join(game_names())}")
    offered = families(game)
    chosen = family or offered[0]
    if chosen not in offered:
        raise ApiError(422, "family", f"{game} is rated in the families {', '.join(offered)}, not {chosen!r}")
    return chosen, pool_name(game, chosen)


@router.get("/ratings")
def list_pools() -> dict[str, Any]:
    """Every leaderboard: each game with its rules families (Doppelkopf: ``ddv`` and ``house``)."""
    return {"pools": [{"game": game, "family": family, "pool": pool_name(game, family)} for game, family in game_pools()]}


@router.get("/ratings/{game}")
async def leaderboard(
    game: Annotated[str, Path(max_length=32)],
    request: Request,
    family: Annotated[str | None, Query(max_length=16)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    """One pool's players, best rating (mu - 3 sigma) first, ``limit`` from ``offset`` on; ``total`` counts all."""
    chosen, pool = _pool(game, family)
    total, lines = await asyncio.to_thread(services(request).db.ratings.leaderboard, pool, limit, offset)
    return {
        "game": game,
        "family": chosen,
        "pool": pool,
        "total": total,
        "offset": offset,
        "limit": limit,
        "players": [line.to_json() for line in lines],
    }


def _rating_json(db: Database, row: Rating) -> dict[str, Any]:
    """One pool's rating of a profile, with its rank and history points."""
    game, _, family = row.pool.partition(":")
    points = db.ratings.history(row.player, row.pool)
    return {
        "game": game,
        "family": family or families(game)[0],
        "pool": row.pool,
        "rating": round(row.ordinal, 2),
        "mu": round(row.mu, 2),
        "sigma": round(row.sigma, 2),
        "rank": db.ratings.rank_of(row.pool, row.ordinal),
        "deals": row.deals,
        "won": row.won,
        "lost": row.lost,
        "history": [
            {"deal_id": p.deal_id, "at": p.at.isoformat(), "rating": round(p.rating, 2), "outcome": p.outcome, "absent": p.absent}
            for p in points
        ],
    }


def _profile(db: Database, name: str) -> dict[str, Any] | None:
    """The profile of the account or bot ``name`` (``bot:SPEC``), or ``None``."""
    if name.startswith("bot:"):
        spec = name[4:]
        if not 0 < len(spec) <= MAX_BOT_SPEC:
            return None
        rows = db.ratings.ratings_of(name)
        if not rows:
            return None
        return {"name": spec, "kind": "bot", "ratings": [_rating_json(db, row) for row in rows], "stats": [], "recent_tables": []}
    normalised = normalise(name)
    if not follows_rule(normalised):
        return None
    user = db.ratings.user_by_name(name_key(normalised))
    if user is None:
        return None
    user_id, shown, registered = user
    player = f"user:{user_id}"
    rated = [
        PlayedDeal(i, "", game, 0, at, seat, record) for i, game, at, seat, record in db.ratings.rated_deals(player, user_id, STATS_DEALS)
    ]
    return {
        "name": shown,
        "kind": "person",
        "registered": registered.date().isoformat(),
        "ratings": [_rating_json(db, row) for row in db.ratings.ratings_of(player)],
        "start_rating": round(ordinal(START_MU, START_SIGMA), 2),
        "stats": game_stats([deal for deal in rated if _readable(deal.record)]),
        "recent_tables": [
            {
                "id": t.id,
                "game": t.game,
                "status": t.status,
                "rated": t.rated,
                "created_at": t.created_at.isoformat(),
                "seat": t.seat,
            }
            for t in db.ratings.recent_tables(user_id, RECENT_TABLES)
        ],
    }


def _readable(record: str) -> bool:
    try:
        return isinstance(json.loads(record).get("result"), dict)
    except (ValueError, AttributeError):
        return False


@router.get("/players/{name}")
async def player_profile(name: Annotated[str, Path(max_length=64)], request: Request) -> dict[str, Any]:
    """A player's profile: ratings per pool with history, statistics of rated deals, recent public tables (404 ``player``)."""
    db = services(request).db
    key = name if name.startswith("bot:") else name_key(name)
    recent = _recent(request)
    known, found = recent.get(key)
    if not known:

        def read() -> dict[str, Any] | None:
            with db.ratings.together():
                return _profile(db, name)

        found = await asyncio.to_thread(read)
        recent.put(key, found)
    if found is None:
        raise ApiError(404, "player", "no such player")
    return found
