"""The tournaments API: duplicate tournaments, their tables, live standings and records (decision 0057).

* ``POST /api/tournaments``: an account creates one (game, rules, deals,
  tables, bots for empty seats, start time or "when full").  Every deal is
  committed at once (seed, salt, SHA-256 as in :mod:`stich.web.deals.fairness`);
  every table deals its ``n``-th deal from deal ``n``'s seed.
* ``POST /api/tournaments/{id}/join``: a seat at the first table with room.
* ``POST /api/tournaments/{id}/start``: the organiser starts it now (the
  bot fills the empty seats); a start time does the same when it comes.
* ``GET /api/tournaments/{id}/standings``: live standings, summed from the
  stored finished deals; a deal number counts only once every table is done
  with it, so nothing of cards still being played shows.
* ``GET /api/tournaments/{id}/records``: the records of those deals, JSON
  Lines, from which ``stich tournament standings FILE`` recomputes the same
  standings.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field, StrictInt

from stich.tournaments.standings import closed_numbers, compute_standings, scoring_for, visible
from stich.web.api.lobby import CreateTable, OptionValue, _Body, check_table
from stich.web.api.services import Services, count_action, services
from stich.web.api.session import current_identity, player
from stich.web.deals.fairness import Commitment
from stich.web.deals.session_kinds import TableKind
from stich.web.guards.names import normalise
from stich.web.guards.table_caps import Owner, is_search_bot
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.seats import new_table_row, table_bot_spec
from stich.web.storage import tournaments as store
from stich.web.storage.models import utcnow

router = APIRouter(prefix="/api", tags=["tournaments"])

MAX_TOURNAMENT_TABLES = 100
"""Most tables one tournament has."""
MAX_OPEN_TOURNAMENTS = 3
"""Most unfinished tournaments one account organises at a time."""
MAX_PAGE = 50
"""Most tournaments one ``GET /api/tournaments`` lists."""
NAME_LENGTH = (3, 48)
"""A tournament name's shortest and longest length (after normalising)."""
_START_TASKS: set[asyncio.Task[None]] = set()
"""The start-time tasks of this worker."""


class CreateTournament(_Body):
    """Body of ``POST /api/tournaments``."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    game: Annotated[str, Field(min_length=1, max_length=32)]
    preset: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=100)] = Field(default_factory=dict)
    kind: TableKind | None = None
    deals: Annotated[int, Field(ge=1)] = 1
    tables: Annotated[int, Field(ge=1)] = 2
    bots: Annotated[str, Field(max_length=32)] | None = None
    """The bot that takes every seat still empty at the start (``null``: the tables wait for people)."""
    start_at: Annotated[str, Field(max_length=40)] | None = None
    """ISO 8601 time with its offset; ``null``: "when full" (each table starts when its seats are taken, or when the organiser starts)."""
    turn_seconds: StrictInt | None = None


class JoinTournament(_Body):
    """Body of ``POST /api/tournaments/{id}/join`` (nothing to choose: the first table with room, its first free seat)."""


def _checked_name(text: str) -> str:
    name = normalise(text)
    low, high = NAME_LENGTH
    if not low <= len(name) <= high or any(unicodedata.category(c).startswith("C") for c in name):
        raise ApiError(422, "name", f"a tournament name has {low} to {high} characters and no control characters")
    return name


def _start_time(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(422, "start_at", "must be an ISO 8601 time such as 2026-12-24T18:00:00+01:00") from None
    if when.tzinfo is None:
        raise ApiError(422, "start_at", "must name its offset from UTC (e.g. +01:00 or Z)")
    return when.astimezone(UTC)


def _organiser_identity(row: store.TournamentRow, creator_session_id: int | None) -> Identity | None:
    """The organiser as the tables' creator (bots are seated in their name)."""
    if creator_session_id is None:
        return None
    return Identity(creator_session_id, row.organiser_id, row.organiser_name)


@router.post("/tournaments", status_code=201)
async def create_tournament(body: CreateTournament, request: Request) -> dict[str, Any]:
    """Create a tournament of ``tables`` tables that all play the same ``deals`` deals (a logged-in account organises it)."""
    svc = services(request)
    identity = await current_identity(request)
    if identity is None or identity.user_id is None:
        raise ApiError(401, "account", "log in with an account to organise a tournament")
    await count_action(request, "tournaments", identity)
    name = _checked_name(body.name)
    if body.tables > MAX_TOURNAMENT_TABLES:
        raise ApiError(422, "tables", f"at most {MAX_TOURNAMENT_TABLES} tables per tournament")
    start_at = _start_time(body.start_at)
    table_body = CreateTable(
        game=body.game,
        preset=body.preset,
        options=body.options,
        deals=body.deals,
        private=True,
        seat=None,
        kind=body.kind,
        turn_seconds=body.turn_seconds,
    )
    checked = check_table(table_body, svc.settings)
    turn = checked.turn_seconds if checked.turn_seconds is not None else svc.settings.public_turn_seconds
    bots = None
    if body.bots is not None:
        spec = table_bot_spec(body.bots, "bots")
        if is_search_bot(spec):
            raise ApiError(
                422, "bots", "a tournament's bots play many tables at once; choose a bot that does not search (random, heuristic)"
            )
        bots = spec.text
    user_id = identity.user_id
    if await asyncio.to_thread(store.count_unfinished_of, svc.db, user_id) >= MAX_OPEN_TOURNAMENTS:
        raise ApiError(429, "tournaments", f"at most {MAX_OPEN_TOURNAMENTS} unfinished tournaments per organiser")
    now = utcnow()
    deals = [store.CommittedDeal(n, c.seed, c.salt, c.digest) for n, c in enumerate(Commitment.fresh() for _ in range(checked.deals))]
    row = store.TournamentRow(
        id=secrets.token_urlsafe(9),
        name=name,
        game=checked.game.canonical,
        game_name=checked.game.name,
        kind=body.kind,
        deals=checked.deals,
        tables=body.tables,
        bots=bots,
        start_at=start_at,
        status="open",
        organiser_id=user_id,
        organiser_name=identity.name,
        created_at=now,
    )
    runtimes = []
    for _ in range(body.tables):
        table_row = new_table_row(checked.game, checked.deals, True, identity, None, now, turn, None, body.kind)
        runtimes.append(await svc.tables.create(table_row))
    await asyncio.to_thread(store.create_tournament, svc.db, row, deals, [r.id for r in runtimes])
    for position, runtime in enumerate(runtimes):
        runtime.duplicate = store.TableLink(row.id, row.name, position, row.tables, tuple(deals))
    if start_at is not None:
        task = asyncio.get_running_loop().create_task(_start_when_due(svc, row.id, start_at), name=f"tournament {row.id} start")
        _START_TASKS.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(_START_TASKS.discard)
    return await _tournament_json(svc, await _load(svc, row.id), identity)


async def _start_when_due(svc: Services, tournament_id: str, when: datetime) -> None:
    """Start the tournament at its start time (the page's next look starts it too, should this worker stop before)."""
    await asyncio.sleep(max(0.0, (when - datetime.now(UTC)).total_seconds()))
    row = await asyncio.to_thread(store.get_tournament, svc.db, tournament_id)
    if row is not None:
        await _start(svc, row)


async def _start(svc: Services, row: store.TournamentRow) -> None:
    """Move the tournament to ``running`` (once, whichever worker gets there first) and seat its bot in every empty seat."""
    if not await asyncio.to_thread(store.set_status, svc.db, row.id, "running", only_from="open"):
        return
    if row.bots is None:
        return
    for _, table_id, status in await asyncio.to_thread(store.tables_of, svc.db, row.id):
        if status != "open":
            continue
        runtime = svc.tables.get(table_id)
        creator = runtime.creator_session_id if runtime is not None else None
        if runtime is None:
            table = await asyncio.to_thread(svc.db.get_table, table_id)
            creator = table.creator_session_id if table is not None else None
        organiser = _organiser_identity(row, creator)
        if organiser is None:
            continue
        try:
            if runtime is not None:
                if any(seat.kind == "empty" for seat in runtime.seats):
                    await runtime.add_bots(organiser, row.bots, None, Owner.of(organiser, None))
            elif svc.tables.shared:
                await svc.tables.forward(table_id, "bots", organiser, {"bot": row.bots, "seats": None, "address": None})
        except ApiError:
            continue  # a table that filled or started meanwhile


@dataclass(frozen=True)
class Loaded:
    """A tournament as it is now, with ``(position, table id, status)`` of its tables."""

    row: store.TournamentRow
    tables: list[tuple[int, str, str]]

    @property
    def finished_tables(self) -> tuple[int, ...]:
        """The positions of the tables that finished their list."""
        return tuple(position for position, _, status in self.tables if status == "finished")


async def _load(svc: Services, tournament_id: str) -> Loaded:
    """The tournament (404 ``tournament`` if none); a start time that passed starts it, and it is finished once every table is."""
    row = await asyncio.to_thread(store.get_tournament, svc.db, tournament_id)
    if row is None:
        raise ApiError(404, "tournament", "no such tournament")
    changed = False
    if row.status == "open" and row.start_at is not None and row.start_at <= datetime.now(UTC):
        await _start(svc, row)
        changed = True
    tables = await asyncio.to_thread(store.tables_of, svc.db, row.id)
    if row.status != "finished" and tables and all(status == "finished" for _, _, status in tables):
        for before in ("running", "open"):
            await asyncio.to_thread(store.set_status, svc.db, row.id, "finished", only_from=before)
        changed = True
    if changed:
        row = await asyncio.to_thread(store.get_tournament, svc.db, row.id) or row
    return Loaded(row, tables)


def _summary(row: store.TournamentRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "game_name": row.game_name,
        "deals": row.deals,
        "tables": row.tables,
        "bots": row.bots,
        "start_at": None if row.start_at is None else row.start_at.isoformat(),
        "status": row.status,
        "organiser": row.organiser_name,
        "scoring": scoring_for(row.game_name),
        "created_at": row.created_at.isoformat(),
    }


async def _closed(svc: Services, loaded: Loaded) -> set[int]:
    """The deal numbers every table is done with (their seeds, scores and records may be shown)."""
    played = await asyncio.to_thread(store.played_of, svc.db, loaded.row.id)
    return closed_numbers(played, loaded.row.tables, loaded.finished_tables)


def _seated(seat: Any, identity: Identity | None) -> bool:
    return (
        identity is not None
        and seat.kind == "human"
        and (seat.session_id == identity.session_id or (seat.user_id is not None and seat.user_id == identity.user_id))
    )


async def _tournament_json(svc: Services, loaded: Loaded, identity: Identity | None) -> dict[str, Any]:
    row = loaded.row
    deals = await asyncio.to_thread(store.committed_deals, svc.db, row.id)
    closed = await _closed(svc, loaded)
    stored = await asyncio.to_thread(store.seats_of, svc.db, row.id)
    organiser = identity is not None and row.organiser_id is not None and identity.user_id == row.organiser_id
    table_json = []
    for position, table_id, status in loaded.tables:
        runtime = svc.tables.get(table_id)
        if runtime is not None:
            names = [
                {"name": seat.player_name(i) if seat.kind != "empty" else None, "kind": seat.kind} for i, seat in enumerate(runtime.seats)
            ]
            mine = runtime.seat_of(identity) is not None
        else:
            seats = stored.get(table_id, [])
            names = [{"name": (f"{s.bot} bot" if s.kind == "bot" else s.name), "kind": s.kind} for s in seats]
            mine = any(_seated(s, identity) for s in seats)
        url = f"/tables/{table_id}" if mine or organiser else None
        table_json.append({"position": position, "status": status, "seats": names, "mine": mine, "url": url})
    return _summary(row) | {
        "tables_detail": table_json,
        "commitments": [
            {
                "number": d.number,
                "commitment": d.commitment,
                "seed": str(d.seed) if d.number in closed else None,
                "salt": d.salt if d.number in closed else None,
            }
            for d in deals
        ],
        "organising": organiser,
    }


@router.get("/tournaments")
async def list_tournaments(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = MAX_PAGE,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    """Tournaments, newest first."""
    svc = services(request)
    rows, total = await asyncio.to_thread(store.list_tournaments, svc.db, limit, offset)
    return {"tournaments": [_summary(row) for row in rows], "total": total, "offset": offset, "limit": limit}


@router.get("/tournaments/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """A tournament: its tables (who sits where), the commitments of its deals (seeds revealed once every table played them)."""
    svc = services(request)
    loaded = await _load(svc, tournament_id)
    return await _tournament_json(svc, loaded, await current_identity(request))


@router.post("/tournaments/{tournament_id}/join")
async def join_tournament(tournament_id: str, body: JoinTournament, request: Request, response: Response) -> dict[str, Any]:
    """Take the first free seat of the first table with room (a guest may play too)."""
    svc = services(request)
    await count_action(request, "tournaments", await current_identity(request))
    loaded = await _load(svc, tournament_id)
    async with player(request, response) as identity:
        if loaded.row.status == "finished":
            raise ApiError(409, "tournament", "the tournament is over")
        stored = await asyncio.to_thread(store.seats_of, svc.db, loaded.row.id)
        if any(_seated(seat, identity) for seats in stored.values() for seat in seats):
            raise ApiError(409, "seat", "you already play in this tournament")
        for position, table_id, status in loaded.tables:
            if status != "open":
                continue
            runtime = svc.tables.get(table_id)
            if runtime is not None:
                if not any(seat.kind == "empty" for seat in runtime.seats):
                    continue
                try:
                    seat = await runtime.join(identity, None, runtime.invite_token)
                except ApiError as exc:
                    if exc.field in ("seat", "table"):
                        continue
                    raise
                return {"tournament": loaded.row.id, "table": position, "seat": seat, "url": f"/tables/{table_id}"}
            if svc.tables.shared:
                table = await asyncio.to_thread(svc.db.get_table, table_id)
                if table is None:
                    continue
                answer = await svc.tables.forward(table_id, "join", identity, {"seat": None, "invite": table.invite_token})
                if answer is not None:
                    return {"tournament": loaded.row.id, "table": position, "url": f"/tables/{table_id}"}
        raise ApiError(409, "tournament", "every seat is taken")


@router.post("/tournaments/{tournament_id}/start")
async def start_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """The organiser starts the tournament now: the bot takes every empty seat."""
    svc = services(request)
    identity = await current_identity(request)
    await count_action(request, "tournaments", identity)
    row = (await _load(svc, tournament_id)).row
    if identity is None or row.organiser_id is None or identity.user_id != row.organiser_id:
        raise ApiError(403, "tournament", "only the organiser may start the tournament")
    if row.status != "open":
        raise ApiError(409, "tournament", "the tournament has started")
    if row.bots is None:
        raise ApiError(409, "bots", "no bot was chosen to fill empty seats; the tables start when people fill them")
    await _start(svc, row)
    return await _tournament_json(svc, await _load(svc, tournament_id), identity)


class _StandingsCache:
    """Standings already computed, as JSON bytes, keyed by what they are computed from.

    The key holds the number of stored finished deals and the finished
    tables: results are only ever added, so the same count is the same rows,
    and any new deal (on any worker) changes the key.  A memo of a pure
    function of the stored deals, not a counter: nothing is lost when a
    worker stops, and two workers may each compute the same bytes.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], value: bytes) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)


_CACHE = _StandingsCache()


async def standings_json(svc: Services, loaded: Loaded, *, comparison: bool = False, closed: set[int] | None = None) -> dict[str, Any]:
    """The standings of the deals every table is done with (:func:`stich.tournaments.standings.closed_numbers`)."""
    row = loaded.row
    outcomes = await asyncio.to_thread(store.outcomes_of, svc.db, row.id)
    shown = visible(outcomes, row.tables, loaded.finished_tables) if closed is None else [o for o in outcomes if o.number in closed]
    standings = compute_standings(row.game_name, shown, comparison=comparison)
    return {"tournament": row.id, "name": row.name} | standings | {"status": row.status}


@router.get("/tournaments/{tournament_id}/standings")
async def tournament_standings(tournament_id: str, request: Request, comparison: bool = False) -> Response:
    """Live standings (poll them): the DDV list scoring for Doppelkopf, a plain sum otherwise.

    ``?comparison=true`` adds the duplicate comparison of every deal and seat
    (each player's score against the others who held the same cards).

    Computed from the stored finished deals, and remembered twice: by the
    number of stored deals (unchanged: nothing new anywhere), and by the deal
    numbers every table is done with (a deal finished at one table changes
    nothing shown until the last table finishes that deal, so a tournament of
    24 deals is summed about 24 times however many tables it has).
    """
    svc = services(request)
    loaded = await _load(svc, tournament_id)
    row = loaded.row
    count = await asyncio.to_thread(store.count_results, svc.db, row.id)
    by_count = (svc.db.url, row.id, row.status, "count", count, loaded.finished_tables, comparison)
    body = _CACHE.get(by_count)
    if body is None:
        closed = await _closed(svc, loaded)
        by_closed = (svc.db.url, row.id, row.status, "closed", tuple(sorted(closed)), comparison)
        body = _CACHE.get(by_closed)
        if body is None:
            standings = await standings_json(svc, loaded, comparison=comparison, closed=closed)
            body = json.dumps(standings, ensure_ascii=False, separators=(",", ":")).encode()
            _CACHE.put(by_closed, body)
        _CACHE.put(by_count, body)
    return Response(content=body, media_type="application/json")


@router.get("/tournaments/{tournament_id}/records")
async def tournament_records(tournament_id: str, request: Request) -> Response:
    """The records of every deal the standings count, as JSON Lines (``stich tournament standings FILE`` recomputes them)."""
    svc = services(request)
    loaded = await _load(svc, tournament_id)
    closed = await _closed(svc, loaded)
    records = await asyncio.to_thread(store.records_of, svc.db, loaded.row.id)
    body = "".join(
        json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n" for _, number, text in records if number in closed
    )
    return Response(
        content=body,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="stich-tournament-{loaded.row.id}.jsonl"'},
    )
