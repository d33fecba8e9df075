"""Learning from a deal (issue 43): hints at a learning table, and "play this deal again" with both results side by side.

* ``POST /api/tables/{id}/hint``: the hint for your own seat when it is your
  turn (:mod:`stich.web.runtime.hints`); refused at a table that is not in
  learning mode, or is rated or a tournament's, and to spectators.  With
  several workers, one that does not run the table forwards the request to
  the one that does (:meth:`~stich.web.cluster.manager.ClusterTableManager.forward`).
* ``POST /api/deals/{id}/again``: a new table that deals the finished deal
  ``id`` again, the same cards from the same seed, dealer and context
  (:mod:`stich.web.deals.table_options`), you in ``seat``; ``bots`` fill the
  other seats (``null``: they stay free for friends, who join with the
  invite link).  One deal, unrated, marked ``replay_of``.
* ``GET /api/deals/{id}/compare``: a replayed deal and its original side by
  side (players, result lines, scores), and whether the cards are the same.

Decision 0059 says why the options live with the table and what a merge with
ratings and tournaments must wire.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stich.core.registry import game_from_string
from stich.web.api.lobby import visible_deal
from stich.web.api.services import count_action, request_address, services
from stich.web.api.session import current_identity, player
from stich.web.deals.table_options import REPLAY_OF, ReplayOf, check_game, learning_options, replay_of_record
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.hints import table_hint
from stich.web.runtime.seats import new_table_row, table_bot_spec
from stich.web.storage.db import DealRow, TableRow
from stich.web.storage.models import utcnow

router = APIRouter(prefix="/api", tags=["learning"])


class PlayAgain(BaseModel):
    """Body of ``POST /api/deals/{id}/again``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    seat: Annotated[int, Field(ge=0)] | None = None
    """Your seat at the new table; ``null``: the seat you had in the deal (seat 0 if you were not at it)."""
    bots: Annotated[str, Field(max_length=32)] | None = "heuristic"
    """Fill every other seat with this bot; ``null``: leave them for friends (the invite link)."""
    private: bool = False
    learning: bool = False
    """Learning mode at the replay (hints on request); needs ``bots``."""


@router.post("/tables/{table_id}/hint")
async def hint(table_id: str, request: Request) -> dict[str, Any]:
    """What the hint bot would play from your seat now, and why (German and English); see :mod:`stich.web.runtime.hints`."""
    svc = services(request)
    identity = await current_identity(request)
    runtime = svc.tables.get(table_id)
    if runtime is None and svc.tables.shared:  # another worker runs it (or nobody does): that worker computes the hint
        answer = await svc.tables.forward(table_id, "hint", identity, {}, wait=svc.settings.hint_timeout_seconds + 2)
        if answer is not None:
            return answer
        runtime = svc.tables.get(table_id)  # nobody ran it, or it came here meanwhile
    if runtime is None or not runtime.may_see(identity, None):
        raise ApiError(404, "table", "no such running table")
    return await table_hint(runtime, identity)


def _finished_record(deal: DealRow) -> dict[str, Any]:
    if deal.status != "finished" or deal.record is None:
        raise ApiError(409, "deal", "only a finished deal can be played again or compared; this one is still being played")
    record: dict[str, Any] = json.loads(deal.record)
    if record.get("seed") is None:
        raise ApiError(409, "deal", "the deal was not dealt from a seed, so it cannot be dealt again")
    return record


def _seat_of(row: TableRow, identity: Identity) -> int | None:
    for seat in row.seats:
        if seat.kind == "human" and (
            seat.session_id == identity.session_id or (seat.user_id is not None and seat.user_id == identity.user_id)
        ):
            return seat.seat
    return None


@router.post("/deals/{deal_id}/again", status_code=201)
async def play_again(
    deal_id: int, body: PlayAgain, request: Request, response: Response, invite: Annotated[str | None, Query(max_length=100)] = None
) -> dict[str, Any]:
    """A new table dealing the finished deal ``deal_id`` again (same seed, dealer and context); you sit in ``seat``."""
    svc = services(request)
    await count_action(request, "again", await current_identity(request))
    deal = await visible_deal(request, deal_id, invite)
    record = _finished_record(deal)
    original = await asyncio.to_thread(svc.db.get_table, deal.table_id)
    assert original is not None  # visible_deal found it
    game = game_from_string(original.game)
    replay = replay_of_record(deal.id, deal.table_id, record, deal.commitment)
    check_game(game, replay)
    bots = table_bot_spec(body.bots, "bots").text if body.bots is not None else None
    async with player(request, response) as identity:
        seat = body.seat if body.seat is not None else (_seat_of(original, identity) or 0)
        if seat >= game.num_seats:
            raise ApiError(422, "seat", f"{game.name} has seats 0..{game.num_seats - 1}")
        try:
            options: dict[str, Any] = learning_options(body.learning, seat, bots)
        except ValueError as exc:
            raise ApiError(422, "learning", str(exc)) from None
        options[REPLAY_OF] = replay.to_json()
        turn = None if body.private else svc.settings.public_turn_seconds
        row = new_table_row(game, 1, body.private, identity, seat, utcnow(), turn, None, None)
        row = replace(row, options=options)
        runtime = await svc.tables.create(row, identity, request_address(request), bots)
    return runtime.summary(identity)


def _side(deal: DealRow, record: dict[str, Any]) -> dict[str, Any]:
    game = game_from_string(record["game"])
    result = record["result"]
    return {
        "deal": deal.id,
        "table": deal.table_id,
        "seed": str(record["seed"]),
        "dealer": record["dealer"],
        "players": record.get("players"),
        "result": result,
        "result_lines": game.describe_result(result),
        "scores": result.get("scores") if isinstance(result, dict) else None,
        "hints": (record.get("meta") or {}).get("hints", []),
    }


@router.get("/deals/{deal_id}/compare")
async def compare(deal_id: int, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """A replayed deal and the original side by side; 404 ``deal`` if ``deal_id`` is no replay (or its original is hidden from you)."""
    deal = await visible_deal(request, deal_id, invite)
    record = _finished_record(deal)
    replay = ReplayOf.from_options({REPLAY_OF: (record.get("meta") or {}).get(REPLAY_OF)})
    if replay is None:
        raise ApiError(404, "deal", "this deal is not a replay of another deal")
    original = await visible_deal(request, replay.deal, None)
    original_record = _finished_record(original)
    same = (
        original_record["deal"] == record["deal"]
        and original_record["seed"] == record["seed"]
        and original_record["dealer"] == record["dealer"]
        and original_record["game"] == record["game"]
    )
    return {"original": _side(original, original_record), "replay": _side(deal, record), "same_cards": same}
