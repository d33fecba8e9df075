"""What happened at the tables: deal replays, a person's statistics and deal list, and the bots the lobby offers.

* ``GET /api/deals/{id}/replay`` rebuilds a finished deal from its stored
  record through the engine and returns, step by step, every seat's
  observation (and its hand as the game's players hold it).  The record is
  re-checked on the way (:func:`stich.core.records.replay_deal`), so a replay
  shows only what the rules produce from the stored seed and actions.
* ``GET /api/me/stats`` and ``GET /api/me/deals`` cover the finished deals
  where the current person (guest or account) had a seat; what a deal was
  for the person (contract, party, result, announcements) comes from
  :mod:`stich.web.deals.deal_facts`.
* ``GET /api/bots`` lists the bot specs a table accepts, with labels and a
  rough thinking time per decision.

Everything here only reads; the live play is in :mod:`stich.web.runtime.table`.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from stich.bots.ladder import strongest
from stich.bots.ladder_standings import STANDINGS
from stich.bots.registry import bot_names
from stich.bots.spec import required_options
from stich.core.game import Game, State
from stich.core.records import replay_deal
from stich.core.registry import game_from_string
from stich.errors import OptionError, StichError
from stich.web.api.lobby import visible_deal
from stich.web.api.services import services
from stich.web.api.session import current_identity
from stich.web.deals.absence import played_by_stand_in, stand_in_seats
from stich.web.deals.deal_facts import DealFacts, deal_facts, richer_stats
from stich.web.guards.table_caps import takes_level
from stich.web.identity import Identity
from stich.web.protocol import ApiError, hand_groups
from stich.web.storage.db import PlayedDeal

router = APIRouter(prefix="/api", tags=["history"])

MAX_PAGE = 100
"""Most deals ``GET /api/me/deals`` returns at once."""

BOT_LABELS = {
    "random": "Random: any legal action",
    "heuristic": "Heuristic: rules of thumb for each game",
    "pimc": "PIMC search (sampled deals, solved open-handed)",
    "ismcts": "ISMCTS search (information-set Monte Carlo tree search)",
    "learned": "Learned: a small network per game, trained to imitate the heuristic bot (docs/strength.md)",
}
"""Labels of the known bots; another registered bot is labelled with its name."""

QUICK_BOT_SECONDS = {"random": 0.00001, "heuristic": 0.001, "learned": 0.002}
"""Rough seconds per decision of the bots that do not search (measured on one core: random about 1 µs,
heuristic 0.02-0.25 ms depending on the game, learned about 1 ms; rounded up)."""

STRONGEST = strongest(STANDINGS)
"""The ladder's strongest bot per game as measured, from its kept standings (docs/strength.md, "Standings"; today
``ismcts`` in Doppelkopf, ``pimc`` in the Tarock family, where ``ismcts`` is its peer); a search bot is stronger
the higher its level."""

LEVELS = range(1, 6)
"""The strength levels a search bot offers (``level`` option)."""


# ------------------------------------------------------------------- bots
def _search_seconds(level: int) -> float | None:
    """Thinking time of a search bot at ``level`` (the search budget), or ``None`` if unknown."""
    try:
        from stich.search.budget import LEVELS as SECONDS  # only needed once a search bot is registered
    except ImportError:  # pragma: no cover - the search bots come with their budget
        return None
    return SECONDS.get(level)


def offered_bots() -> list[dict[str, Any]]:
    """Every bot spec a table accepts: a plain spec per bot, and for search bots one per ``level``.

    ``strongest`` names the games in which the offer's bot is the ladder's strongest (:data:`STRONGEST`).

    A bot that needs an option a table does not take (``policy`` needs ``file``) is not offered.
    """
    offers: list[dict[str, Any]] = []
    for name in bot_names():
        try:
            if required_options(name):
                continue
        except OptionError:  # its module cannot be loaded here (the policy bot without the rl extra)
            continue
        label = BOT_LABELS.get(name, name)
        strongest = sorted(game for game, best in STRONGEST.items() if best == name)
        if takes_level(name):
            for level in LEVELS:
                offers.append(
                    {
                        "spec": f"{name}:level={level}",
                        "bot": name,
                        "level": level,
                        "label": f"{label}, level {level}",
                        "seconds_per_decision": _search_seconds(level),
                        "strongest": strongest,
                    }
                )
        else:
            offers.append(
                {
                    "spec": name,
                    "bot": name,
                    "level": None,
                    "label": label,
                    "seconds_per_decision": QUICK_BOT_SECONDS.get(name),
                    "strongest": strongest,
                }
            )
    return offers


@router.get("/bots")
def list_bots(request: Request) -> dict[str, Any]:
    """The bots a table offers (``spec`` goes into ``POST /api/tables/{id}/bots``), with a rough thinking time per decision."""
    return {"bots": offered_bots(), "default": "heuristic", "stand_in": services(request).settings.stand_in_bot, "strongest": STRONGEST}


# ---------------------------------------------------------------- replays
def _initial_state(game: Game, record: dict[str, Any], final: State) -> State:
    """The deal's state before its first action, as the record deals it."""
    if record["seed"] is not None:
        return game.new_state(seed=record["seed"], dealer=record["dealer"], context=record["context"])
    return game.new_state(hands=[game.deck.cards(mask) for mask in final.dealt], dealer=record["dealer"], context=record["context"])


def _frame(game: Game, state: State, step: int, action: tuple[int, str] | None) -> dict[str, Any]:
    observations = [state.observation(seat) for seat in range(game.num_seats)]
    return {
        "step": step,
        "action": None if action is None else {"seat": action[0], "text": action[1]},
        "observations": [obs.to_json() for obs in observations],
        "hand_groups": [hand_groups(game, obs) for obs in observations],
    }


def build_replay(deal_id: int, record_text: str) -> dict[str, Any]:
    """The replay of a finished deal's record: one frame per step, every seat's observation in each.

    The record is replayed with every check first; a record that does not
    replay raises :class:`StichError`.
    """
    record = json.loads(record_text)
    final = replay_deal(record)
    game = game_from_string(record["game"])
    state = _initial_state(game, record, final)
    frames = [_frame(game, state, 0, None)]
    for step, (seat, text) in enumerate(record["actions"], start=1):
        state.apply(text)
        frames.append(_frame(game, state, step, (seat, text)))
    players: Sequence[str] = record.get("players") or [f"seat {seat}" for seat in range(game.num_seats)]
    return {
        "deal_id": deal_id,
        "table_id": record.get("meta", {}).get("table"),
        "game": record["game"],
        "game_name": game.name,
        "dealer": record["dealer"],
        "seats": list(players),
        "frames": frames,
        "result": record["result"],
        "result_lines": game.describe_result(record["result"]),
        "stand_in_seats": stand_in_seats(record),
    }


class ReplayCache:
    """Built replays as gzip-compressed JSON, least recently used dropped first once they pass ``max_bytes`` in all.

    A replay is about 100-200 times the size of its record (every seat's
    observation at every step) and costs 5-125 ms of CPU to build and
    serialise; compressed it is about a tenth of that.  Finished records
    never change, so a replay is built once and then served as stored bytes:
    a visitor asking again, or many visitors asking for the same deal, cost
    a dictionary lookup.  Entries are keyed by deal id and the SHA-256 of the
    record, so two servers in one process (tests) never mix their deals.
    Thread-safe: replays are built in worker threads.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def gzipped(self, deal_id: int, record_text: str) -> bytes:
        """The deal's replay as gzip-compressed JSON, built (and kept) if it is not cached."""
        key = (deal_id, hashlib.sha256(record_text.encode()).hexdigest())
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found
        packed = gzip.compress(json.dumps(build_replay(deal_id, record_text), separators=(",", ":")).encode(), compresslevel=6, mtime=0)
        with self._lock:
            if key not in self._entries and len(packed) <= self.max_bytes:
                self._entries[key] = packed
                self.size += len(packed)
                while self.size > self.max_bytes:
                    _, dropped = self._entries.popitem(last=False)
                    self.size -= len(dropped)
        return packed


REPLAYS = ReplayCache(32 * 1024 * 1024)
"""The replays of this process (32 MiB of compressed replays: some 3,000 deals)."""


def _accepts_gzip(request: Request) -> bool:
    return any(part.split(";")[0].strip().lower() in ("gzip", "*") for part in request.headers.get("accept-encoding", "").split(","))


@router.get("/deals/{deal_id}/replay", response_model=None)
async def deal_replay(deal_id: int, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> Response:
    """A finished deal step by step: every seat's observation after each action (409 while the deal is played).

    Sent gzip-compressed to clients that accept it (every browser), from the
    cache of built replays (:class:`ReplayCache`).
    """
    deal = await visible_deal(request, deal_id, invite)
    if deal.status != "finished" or deal.record is None:
        raise ApiError(409, "deal", "the deal is still being played; its replay is available when it ends")
    try:
        packed = await asyncio.to_thread(REPLAYS.gzipped, deal.id, deal.record)
    except (StichError, ValueError, KeyError, TypeError) as exc:
        raise ApiError(500, "deal", f"the stored record of deal {deal.id} does not replay: {exc}") from None
    headers = {"Vary": "Accept-Encoding"}
    if _accepts_gzip(request):
        return Response(packed, media_type="application/json", headers={**headers, "Content-Encoding": "gzip"})
    return Response(gzip.decompress(packed), media_type="application/json", headers=headers)


# ------------------------------------------------------------- statistics
async def _identity(request: Request) -> Identity:
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session: play as a guest or log in first")
    return identity


def _facts(played: PlayedDeal) -> DealFacts:
    """The deal's facts for the person's seat (contract, party, result, announcements)."""
    return deal_facts(json.loads(played.record), played.seat, played.game)


def game_stats(deals: Sequence[PlayedDeal]) -> list[dict[str, Any]]:
    """Per game: deals, won (score above 0), lost (below 0), score total and mean, and the richer figures; games in name order.

    Thrown-in deals are not played deals and are left out (issue 28).  The
    richer figures (:func:`stich.web.deals.deal_facts.richer_stats`) are the
    Re/Kontra (or declarer/defender) split, the deals played alone (solos,
    Tarock contracts) per contract, and the announcements made and won.
    """
    by_game: dict[str, list[DealFacts]] = {}
    for played in deals:
        facts = _facts(played)
        if not facts.thrown_in:
            by_game.setdefault(played.game, []).append(facts)
    out = []
    for game, game_facts in sorted(by_game.items()):
        scores = [fact.score for fact in game_facts]
        out.append(
            {
                "game": game,
                "deals": len(scores),
                "won": sum(1 for s in scores if s > 0),
                "lost": sum(1 for s in scores if s < 0),
                "score_total": sum(scores),
                "score_mean": sum(scores) / len(scores),
                **richer_stats(game_facts),
            }
        )
    return out


def _stand_in(played: PlayedDeal) -> bool:
    """Whether a stand-in bot played for the person in this deal."""
    return played_by_stand_in(json.loads(played.record), played.seat)


@router.get("/me/stats")
async def my_stats(request: Request, include_stand_in: bool = False) -> dict[str, Any]:
    """Your finished deals per game: how many, won, lost, total and mean score (401 without a session).

    Deals a stand-in bot played for you are left out unless ``include_stand_in=true``;
    ``stand_in_deals`` says how many there are either way.
    """
    identity = await _identity(request)
    deals = await asyncio.to_thread(services(request).db.played_deals, identity.user_id, identity.session_id)
    absent = [played for played in deals if _stand_in(played)]
    counted = deals if include_stand_in else [played for played in deals if not _stand_in(played)]
    return {
        "name": identity.name,
        "guest": identity.guest,
        "games": game_stats(counted),
        "include_stand_in": include_stand_in,
        "stand_in_deals": len(absent),
    }


@router.get("/me/deals")
async def my_deals(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
    offset: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
) -> dict[str, Any]:
    """Your finished deals, newest first, ``limit`` at a time from ``offset``; each with its seat, your score,
    and the deal's contract, your party (``re``/``kontra``/``solo``, ``declarer``/``defender``/``idle``),
    whether you won, and your announcements (:mod:`stich.web.deals.deal_facts`)."""
    identity = await _identity(request)
    db = services(request).db
    deals = await asyncio.to_thread(db.played_deals, identity.user_id, identity.session_id, limit=limit, offset=offset)
    total = await asyncio.to_thread(db.count_played_deals, identity.user_id, identity.session_id)
    return {
        "name": identity.name,
        "total": total,
        "limit": limit,
        "offset": offset,
        "deals": [_deal_entry(played) for played in deals],
    }


def _deal_entry(played: PlayedDeal) -> dict[str, Any]:
    """One deal of ``GET /api/me/deals``: where and when, the seat, the score, and the deal's facts for the seat."""
    record = json.loads(played.record)
    facts = deal_facts(record, played.seat, played.game)
    return {
        "deal_id": played.deal_id,
        "table_id": played.table_id,
        "game": played.game,
        "number": played.number,
        "finished_at": played.finished_at.isoformat(),
        "seat": played.seat,
        "score": facts.score,
        "stand_in": played_by_stand_in(record, played.seat),
        "thrown_in": facts.thrown_in,
        **facts.to_json(),
        "result": record["result"],
        "players": record.get("players"),
        "replay_url": f"/api/deals/{played.deal_id}/replay",
    }
