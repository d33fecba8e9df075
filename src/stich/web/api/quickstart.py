""" "Schnellstart" (issue 44): one click seats the player at an open table of people for the chosen game, or opens one.

``POST /api/quickstart`` ``{game}``:

1. a person already sitting at an open table of that game is sent back to it;
2. otherwise the open public tables of the game where somebody already sits
   and a seat is free are tried, the fullest first (it starts soonest), then
   the oldest; the first that takes the person wins.  Tables run by other
   workers are joined through them (:meth:`TableManager.forward`), so every
   worker finds every table;
3. no such table: a new public table of the game with its default rules and
   the person in seat 0 is opened (the caps of any new table apply), for the
   next Schnellstart to find.

Answers ``{joined, created, table}`` (``table``: the summary, with ``your_seat``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stich.core.registry import game_names
from stich.web.api.lobby import CreateTable, check_table
from stich.web.api.services import Services, count_action, request_address, services
from stich.web.api.session import current_identity, player
from stich.web.api.table_end import seat_of
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.seats import new_table_row
from stich.web.storage.db import TableRow
from stich.web.storage.models import utcnow

router = APIRouter(prefix="/api", tags=["lobby"])

TRIES = 5
"""Most open tables tried before opening a new one (each may fill up under the request)."""


class QuickStart(BaseModel):
    """Body of ``POST /api/quickstart``."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(min_length=1, max_length=32)]


def candidates(rows: list[TableRow], game: str, identity: Identity) -> list[TableRow]:
    """The open public tables of ``game`` with a person seated and a seat free, the fullest first, then the oldest."""
    found = [
        row
        for row in rows
        if row.game_name == game
        and not row.private
        and any(seat.kind == "empty" for seat in row.seats)
        and any(seat.kind == "human" for seat in row.seats)
        and seat_of(row, identity) is None
    ]
    return sorted(found, key=lambda row: (sum(seat.kind == "empty" for seat in row.seats), row.created_at))


async def _join(svc: Services, row: TableRow, identity: Identity) -> dict[str, Any] | None:
    """Join ``row`` at any free seat: its summary, or ``None`` when it filled up or started meanwhile."""
    try:
        runtime = svc.tables.get(row.id)
        if runtime is None:
            return await svc.tables.forward(row.id, "join", identity, {"seat": None, "invite": None})
        await runtime.join(identity, None, None)
        return runtime.summary(identity)
    except ApiError as exc:
        if exc.status in (404, 409):
            return None
        raise


@router.post("/quickstart")
async def quickstart(body: QuickStart, request: Request, response: Response) -> dict[str, Any]:
    """Seat the asker at an open table of people playing ``game``, or open one (see the module)."""
    svc = services(request)
    await count_action(request, "quickstart", await current_identity(request))
    if body.game not in game_names():
        raise ApiError(422, "game", f"unknown game {body.game!r}; available: {', '.join(game_names())}")
    checked = check_table(CreateTable(game=body.game, seat=0), svc.settings)
    async with player(request, response) as identity:
        rows = await asyncio.to_thread(svc.db.tables_with_status, ["open"])
        mine = next((row for row in rows if row.game_name == body.game and seat_of(row, identity) is not None), None)
        if mine is not None:
            runtime = svc.tables.get(mine.id)
            summary = (
                runtime.summary(identity)
                if runtime is not None
                else await svc.tables.forward(mine.id, "summary", identity, {"invite": None})
            )
            if summary is not None:
                return {"joined": True, "created": False, "table": summary}
        for row in candidates(rows, body.game, identity)[:TRIES]:
            joined = await _join(svc, row, identity)
            if joined is not None:
                return {"joined": True, "created": False, "table": joined}
        new = new_table_row(checked.game, checked.deals, False, identity, 0, utcnow(), checked.turn_seconds, checked.continue_seconds)
        runtime = await svc.tables.create(new, identity, request_address(request))
        return {"joined": False, "created": True, "table": runtime.summary(identity)}
