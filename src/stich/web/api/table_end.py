"""The end of a table (issue 44): final standings, the score sheet as CSV, and "Revanche".

* ``GET /api/tables/{id}/standings``: winners, ranking, totals, the sheet and
  the list's special rows, recomputed from the stored records
  (:mod:`stich.web.deals.standings`), so any worker answers the same; with
  the Revanche table once there is one.
* ``GET /api/tables/{id}/sheet.csv``: the score sheet as a CSV download (the
  printable page is the client's, ``#/sheet/{id}``).
* ``POST /api/tables/{id}/rematch``: opens the same table again, once: the
  same game and options, number of deals, privacy, time limits, kind and rating;
  the same bots in the same seats; the asker in their seat; every other
  person who sat there gets an invite notice that keeps their seat
  (:mod:`stich.web.api.social`).  Two players asking at once, on any worker,
  get the same new table (:func:`stich.web.storage.social.claim_rematch`).

Everything here reads finished deals only; a running deal's cards are never in reach.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict, defaultdict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from stich.core.registry import game_from_string
from stich.errors import StichError
from stich.web.api.lobby import row_may_see
from stich.web.api.services import Services, count_action, request_address, services
from stich.web.api.session import current_identity
from stich.web.deals.standings import sheet_csv, standings
from stich.web.guards.table_caps import Owner
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.seats import new_table_row
from stich.web.storage import social
from stich.web.storage.db import TableRow
from stich.web.storage.models import utcnow

router = APIRouter(prefix="/api/tables", tags=["table end"])

REMATCH_WAIT_SECONDS = 5.0
"""How long a Revanche request that lost the race waits for the winner's table to be stored."""

KEPT_STANDINGS = 256
"""Standings kept per process, newest used first: replaying a 48-deal list costs about 90 ms (bench/bench_table_standings.py)."""

_kept: OrderedDict[tuple[str, int, tuple[str, ...]], dict[str, Any]] = OrderedDict()
_kept_lock = threading.Lock()


def table_standings_of(row: TableRow, records: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """:func:`~stich.web.deals.standings.standings` of a stored table, kept for the next request.

    A finished deal never changes what it adds to the sheet, so the table,
    its number of finished deals and its seats' names (a deleted account's
    seat is renamed) say whether a kept answer still holds.  Called in a
    worker thread.
    """
    key = (row.id, len(records), tuple(names))
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    result = standings(game_from_string(row.game), row.deals_requested, records, names)
    with _kept_lock:
        _kept[key] = result
        while len(_kept) > KEPT_STANDINGS:
            _kept.popitem(last=False)
    return result


def seat_names(row: TableRow) -> list[str]:
    """The names of a stored table's seats as its records write them."""
    return [f"{s.bot} bot" if s.kind == "bot" else s.name or f"seat {s.seat}" for s in row.seats]


def seat_of(row: TableRow, identity: Identity | None) -> int | None:
    """The (lowest) seat ``identity``'s person held at the stored table, or ``None``."""
    if identity is None:
        return None
    for seat in row.seats:
        same_account = seat.user_id is not None and seat.user_id == identity.user_id
        if seat.kind == "human" and (seat.session_id == identity.session_id or same_account):
            return seat.seat
    return None


async def _visible_row(svc: Services, table_id: str, identity: Identity | None, invite: str | None) -> TableRow:
    row = await asyncio.to_thread(svc.db.get_table, table_id)
    if row is None or not row_may_see(row, identity, invite):
        raise ApiError(404, "table", "no such table")
    return row


async def _finished_records(svc: Services, table_id: str) -> list[dict[str, Any]]:
    deals = await asyncio.to_thread(svc.db.deals_of, table_id)
    return [json.loads(d.record) for d in deals if d.status == "finished" and d.record]


def _member(row: TableRow, identity: Identity | None) -> bool:
    return identity is not None and (seat_of(row, identity) is not None or identity.session_id == row.creator_session_id)


async def _rematch_json(svc: Services, row: TableRow, identity: Identity | None) -> dict[str, Any] | None:
    """The Revanche table as this person may know it: its id, and its invite token for the old table's members."""
    rematch = await asyncio.to_thread(social.rematch_of, svc.db, row.id)
    if rematch is None:
        return None
    new = await asyncio.to_thread(svc.db.get_table, rematch)
    if new is None:
        return None
    kept = seat_of(row, identity)
    return {"id": new.id, "invite": new.invite_token if _member(row, identity) else None, "seat": kept, "status": new.status}


@router.get("/{table_id}/standings")
async def table_standings(table_id: str, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """The table's standings from its finished deals (``final`` once the table has finished), and its Revanche if any."""
    svc = services(request)
    identity = await current_identity(request)
    row = await _visible_row(svc, table_id, identity, invite)
    records = await _finished_records(svc, table_id)
    names = seat_names(row)
    result = await asyncio.to_thread(table_standings_of, row, records, names)
    return {
        "table": row.id,
        "game": row.game,
        "game_name": row.game_name,
        "status": row.status,
        "final": row.status == "finished",
        "names": names,
        "your_seat": seat_of(row, identity),
        "rematch": await _rematch_json(svc, row, identity),
        **result,
    }


@router.get("/{table_id}/sheet.csv")
async def table_sheet_csv(table_id: str, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> Response:
    """The score sheet of the finished deals as CSV (``stich-<table>.csv``)."""
    svc = services(request)
    row = await _visible_row(svc, table_id, await current_identity(request), invite)
    records = await _finished_records(svc, table_id)
    names = seat_names(row)
    result = await asyncio.to_thread(table_standings_of, row, records, names)
    return Response(
        content=sheet_csv(names, result["sheet"]),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="stich-{row.id}.csv"'},
    )


async def _await_rematch(svc: Services, row: TableRow, identity: Identity) -> dict[str, Any]:
    """The Revanche another request claimed, once its table is stored (it is being created right now)."""
    deadline = asyncio.get_running_loop().time() + REMATCH_WAIT_SECONDS
    while True:
        found = await _rematch_json(svc, row, identity)
        if found is not None:
            return {"created": False, "rematch": found}
        if asyncio.get_running_loop().time() > deadline:
            raise ApiError(409, "table", "the Revanche is being opened; try again in a moment", {"Retry-After": "1"})
        await asyncio.sleep(0.1)


@router.post("/{table_id}/rematch")
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """Open the finished table again ("Revanche") for the people who sat there: the same game, options, bots and seats.

    Only someone who sat at the table (or created it) may; 409 while it is
    not finished.  The table caps hold as for any new table (429 ``tables``).
    Answers ``{created, rematch: {id, invite, seat, status}}``; a second
    request gets the table the first opened (``created: false``).
    """
    svc = services(request)
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session")
    await count_action(request, "rematch", identity)
    row = await _visible_row(svc, table_id, identity, None)
    if not _member(row, identity):
        raise ApiError(403, "table", "only the people who sat at the table may open it again")
    if row.status != "finished":
        raise ApiError(409, "table", "the table has not finished yet")
    if await asyncio.to_thread(social.rematch_of, svc.db, table_id) is not None:
        return await _await_rematch(svc, row, identity)
    try:
        game = game_from_string(row.game)
    except StichError as exc:  # pragma: no cover - a stored game string always parses
        raise ApiError(409, "table", f"the table's game cannot be set up again: {exc}") from None
    mine = seat_of(row, identity)
    address = request_address(request)
    rated = row.rated and identity.user_id is not None  # a rated table's rematch is rated too (decision 0055: accounts only)
    new = new_table_row(
        game, row.deals_requested, row.private, identity, mine, utcnow(), row.turn_seconds, row.continue_seconds, row.kind, rated
    )
    if not await asyncio.to_thread(social.claim_rematch, svc.db, table_id, new.id):
        return await _await_rematch(svc, row, identity)
    try:
        runtime = await svc.tables.create(new, identity, address)
    except BaseException:
        await asyncio.to_thread(social.release_rematch, svc.db, table_id, new.id)
        raise
    await _invite_the_others(svc, row, identity, new.id)
    await _seat_the_bots(row, runtime, identity, Owner.of(identity, address))
    found = await _rematch_json(svc, row, identity)
    assert found is not None
    return {"created": True, "rematch": found}


async def _invite_the_others(svc: Services, row: TableRow, identity: Identity, new_id: str) -> None:
    """An invite notice, keeping their seat, to every other person who sat at the old table."""
    for seat in row.seats:
        if seat.kind != "human" or seat_of(row, identity) == seat.seat:
            continue
        if seat.user_id is not None and seat.user_id == identity.user_id:
            continue
        if seat.user_id is None and seat.session_id is None:  # a deleted account, or a guest whose session ended
            continue
        to_session = None if seat.user_id is not None else seat.session_id
        await asyncio.to_thread(social.add_invite, svc.db, new_id, identity.name, seat.user_id, to_session, seat.seat)


async def _seat_the_bots(row: TableRow, runtime: Any, identity: Identity, owner: Owner) -> None:
    """The old table's bots in their seats again, each spec through the table's caps; a refused spec leaves its seats free."""
    by_spec: dict[str, list[int]] = defaultdict(list)
    for seat in row.seats:
        if seat.kind == "bot" and seat.bot:
            by_spec[seat.bot].append(seat.seat)
    for spec, seats in by_spec.items():
        try:
            await runtime.add_bots(identity, spec, seats, owner)
        except ApiError:  # e.g. a guest may not seat a level the account did: the seats stay free for the table's people
            continue
