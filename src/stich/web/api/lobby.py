"""The lobby REST API: games, tables, seats, bots, invites and deal records.

Every request body is a pydantic model without unknown fields; the game, its
preset and options are checked through the registry before anything is
stored, and a refusal names the field at fault
(``{"type": "error", "field": "options.nines", "message": ...}``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from stich.bots.registry import bot_names
from stich.core.game import Game
from stich.core.options import parse_value
from stich.core.registry import game_class, game_names, make_game
from stich.errors import OptionError
from stich.web.api.services import Services, request_address, services
from stich.web.api.session import current_identity, player
from stich.web.deals.session_kinds import TableKind, kind_deals, kind_options, session_rules
from stich.web.deals.table_options import LEARNING, ReplayOf, learning_options
from stich.web.guards.table_caps import Owner
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.seats import new_table_row, table_bot_spec
from stich.web.runtime.table import TableRuntime
from stich.web.runtime.turn_clock import MAX_CONTINUE_SECONDS, MAX_TURN_SECONDS, check_limit
from stich.web.settings import Settings
from stich.web.storage.db import DealRow, TableRow
from stich.web.storage.models import utcnow

router = APIRouter(prefix="/api", tags=["lobby"])

MAX_TABLES_PAGE = 100
"""Most tables one ``GET /api/tables`` lists (``limit``); ``offset`` pages on."""

OptionText = Annotated[str, Field(max_length=200)]
OptionMembers = Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=64)]
OptionValue = StrictBool | StrictInt | OptionText | OptionMembers
"""An option value as JSON: true/false, an integer, text, or the members of a set-valued option."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateTable(_Body):
    """Body of ``POST /api/tables``."""

    game: Annotated[str, Field(min_length=1, max_length=32)]
    preset: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=100)] = Field(default_factory=dict)
    deals: Annotated[int, Field(ge=1)] = 1
    private: bool = False
    seat: Annotated[int, Field(ge=0)] | None = 0
    """The creator's seat; ``null`` to create a table without sitting at it."""
    bots: Annotated[str, Field(max_length=32)] | None = None
    """Fill every other seat with this bot at once (the table then starts): a spec such as ``heuristic`` or ``pimc:level=2``."""
    kind: TableKind | None = None
    """``free`` (nothing compulsory, any number of deals) or ``list`` (whole rounds); see :mod:`stich.web.deals.session_kinds`."""
    turn_seconds: StrictInt | None = None
    """Seconds per move before a stand-in bot makes it (``null``: no turn timer); see :mod:`stich.web.runtime.turn_clock`."""
    continue_seconds: StrictInt | None = None
    """Longest wait for every person's "Weiter" after a deal (``null``: see :mod:`stich.web.runtime.ready_wait`)."""
    rated: bool = False
    """Whether the table's complete deals change ratings (accounts only; decision 0055)."""
    learning: bool = False
    """Learning mode: hints on request (:mod:`stich.web.runtime.hints`); needs ``seat`` and ``bots`` (decision 0059)."""


class JoinTable(_Body):
    """Body of ``POST /api/tables/{id}/join``."""

    seat: Annotated[int, Field(ge=0)] | None = None
    invite: Annotated[str, Field(max_length=100)] | None = None


class AddBots(_Body):
    """Body of ``POST /api/tables/{id}/bots``; ``bot`` is a spec: ``random``, ``heuristic``, ``pimc:level=2``... (see ``GET /api/bots``)."""

    bot: Annotated[str, Field(min_length=1, max_length=32)] = "heuristic"
    seats: Annotated[list[Annotated[int, Field(ge=0)]], Field(max_length=16)] | None = None


def build_game(body: CreateTable) -> Game:
    """The configured game of a request, or an :class:`ApiError` naming ``game``, ``preset`` or ``options.KEY``."""
    if body.game not in game_names():
        raise ApiError(422, "game", f"unknown game {body.game!r}; available: {', '.join(game_names())}")
    cls = game_class(body.game)
    table = cls.option_table
    if body.preset is not None and body.preset not in table.presets:
        raise ApiError(422, "preset", f"{body.game} has no preset {body.preset!r}; presets: {', '.join(table.presets)}")
    for key, raw in body.options.items():
        info = table.by_name.get(key)
        if info is None:
            raise ApiError(422, f"options.{key}", f"{body.game} has no option {key!r}; options: {', '.join(table.by_name)}")
        try:
            parse_value(info, raw)
        except OptionError as exc:
            raise ApiError(422, f"options.{key}", str(exc)) from None
    try:
        return make_game(body.game, body.preset, body.options)
    except OptionError as exc:
        raise ApiError(422, "options", str(exc)) from None


def settle_table(body: CreateTable) -> tuple[Game, int]:
    """The game and number of deals of a new table, its ``kind`` applied (see :mod:`stich.web.deals.session_kinds`)."""
    options = kind_options(body.game, body.preset, body.options, body.kind)
    game = build_game(body.model_copy(update={"options": options}))
    return game, kind_deals(game, body.kind, body.deals if "deals" in body.model_fields_set else None)


def _runtime(svc: Services, table_id: str, identity: Identity | None, invite: str | None) -> TableRuntime:
    runtime = svc.tables.get(table_id)
    if runtime is None or not runtime.may_see(identity, invite):
        raise ApiError(404, "table", "no such open or running table")
    return runtime


def row_may_see(row: TableRow, identity: Identity | None, invite: str | None) -> bool:
    """Whether ``identity`` may see the stored table ``row``: anyone a public one; its members, creator or invite a private one."""
    if not row.private or (invite is not None and secrets.compare_digest(invite.encode(), row.invite_token.encode())):
        return True
    if identity is None:
        return False
    if identity.session_id == row.creator_session_id:
        return True
    return any(
        seat.kind == "human" and (seat.session_id == identity.session_id or (seat.user_id is not None and seat.user_id == identity.user_id))
        for seat in row.seats
    )


def _deal_json(deal: DealRow) -> dict[str, Any]:
    finished = deal.status == "finished"
    return {
        "id": deal.id,
        "table": deal.table_id,
        "number": deal.number,
        "dealer": deal.dealer,
        "status": deal.status,
        "commitment": deal.commitment,
        "seed": str(deal.seed) if finished else None,
        "salt": deal.salt if finished else None,
        "record_url": f"/api/deals/{deal.id}/record" if finished else None,
    }


# ------------------------------------------------------------------ games
@router.get("/games")
def list_games() -> dict[str, Any]:
    """The games a table can play: presets, options (with their docs) and seats; and the bots."""
    games = []
    for name in game_names():
        cls = game_class(name)
        game = make_game(name)
        games.append(
            {
                "name": name,
                "title": cls.title,
                "seats": game.num_seats,
                "default_preset": cls.option_table.default_preset,
                "presets": list(cls.option_table.presets),
                "options": [info.to_json() for info in cls.option_table.infos],
            }
        )
    return {"games": games, "bots": bot_names()}


# ----------------------------------------------------------------- tables
@router.get("/tables")
async def list_tables(
    request: Request,
    status: Annotated[str, Query(pattern="^(open|playing|all)$")] = "all",
    limit: Annotated[int, Query(ge=1, le=MAX_TABLES_PAGE)] = MAX_TABLES_PAGE,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    """Open and running public tables (and private ones you sit at), oldest first, ``limit`` from ``offset`` on; ``total`` counts all."""
    svc = services(request)
    identity = await current_identity(request)
    shown = [
        runtime
        for runtime in list(svc.tables.tables.values())
        if runtime.status != "finished"
        and (status == "all" or runtime.status == status)
        and (not runtime.private or runtime.may_see(identity, None))
    ]
    summaries = [runtime.summary(identity) for runtime in shown]
    if svc.tables.shared:  # and the tables other workers run
        summaries += [entry for entry in await svc.tables.remote_summaries(identity) if status == "all" or entry["status"] == status]
    summaries.sort(key=lambda entry: (str(entry.get("created_at", "")), str(entry["id"])))  # one order, whichever worker answers
    page = summaries[offset : offset + limit]
    return {"tables": page, "total": len(summaries), "offset": offset, "limit": limit}


@dataclass(frozen=True)
class CheckedTable:
    """A table body that passed every check of its own (the caps, which depend on who asks, come at creation)."""

    game: Game
    deals: int
    bots: str | None
    turn_seconds: int | None
    continue_seconds: int | None
    options: dict[str, Any]
    """The table's own options (:mod:`stich.web.deals.table_options`)."""


def check_table(body: CreateTable, settings: Settings) -> CheckedTable:
    """Every check of a table body that does not depend on who asks, or the :class:`ApiError` naming the field.

    Creating a table and asking what it would play (``POST /api/tables/rules``)
    both pass here, so the rules endpoint refuses what creation refuses (it
    used to answer 200 for 10^6 deals).  A public table asked for without a
    turn limit gets ``public_turn_seconds``: one person who never acts cannot
    stop a table others joined for good.
    """
    game, deals = settle_table(body)
    if deals > settings.max_deals:
        raise ApiError(422, "deals", f"at most {settings.max_deals} deals per table")
    if body.seat is not None and body.seat >= game.num_seats:
        raise ApiError(422, "seat", f"{game.name} has seats 0..{game.num_seats - 1}")
    bots = table_bot_spec(body.bots, "bots").text if body.bots is not None else None
    least = settings.min_limit_seconds
    turn = check_limit(body.turn_seconds, "turn_seconds", least, MAX_TURN_SECONDS)
    if turn is None and not body.private:
        turn = settings.public_turn_seconds
    wait = check_limit(body.continue_seconds, "continue_seconds", least, MAX_CONTINUE_SECONDS)
    try:
        options = learning_options(body.learning, body.seat, bots, body.rated)
    except ValueError as exc:
        raise ApiError(422, "learning", str(exc)) from None
    return CheckedTable(game, deals, bots, turn, wait, options)


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, response: Response) -> dict[str, Any]:
    """Create a table (you sit at ``seat`` unless it is null); with ``bots`` the other seats are filled and play starts."""
    svc = services(request)
    table = check_table(body, svc.settings)
    async with player(request, response) as identity:
        if body.rated and identity.guest:
            raise ApiError(403, "rated", "a rated table is for accounts: log in or register to create one")
        row = new_table_row(
            table.game,
            table.deals,
            body.private,
            identity,
            body.seat,
            utcnow(),
            table.turn_seconds,
            table.continue_seconds,
            body.kind,
            body.rated,
        )
        row = replace(row, options=table.options)
        runtime = await svc.tables.create(row, identity, request_address(request), table.bots)
    return runtime.summary(identity)


@router.post("/tables/rules")
def table_rules(body: CreateTable, request: Request) -> dict[str, Any]:
    """What a table created with this body would play: its list's length, kind, dealer rule and compulsory deals (nothing is made).

    The body is checked as creation checks it (:func:`check_table`).
    """
    table = check_table(body, services(request).settings)
    return session_rules(table.game, table.deals, body.kind)


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """One table; a private one needs membership or its invite token (``?invite=``)."""
    svc = services(request)
    identity = await current_identity(request)
    runtime = svc.tables.get(table_id)
    if runtime is not None:
        return _runtime(svc, table_id, identity, invite).summary(identity, invite=invite)
    elsewhere = await svc.tables.forward(table_id, "summary", identity, {"invite": invite}) if svc.tables.shared else None
    if elsewhere is not None:
        return elsewhere
    row = await asyncio.to_thread(svc.db.get_table, table_id)
    if row is None or not row_may_see(row, identity, invite):
        raise ApiError(404, "table", "no such table")
    deals = await asyncio.to_thread(svc.db.deals_of, table_id)
    return {
        "id": row.id,
        "game": row.game,
        "game_name": row.game_name,
        "status": row.status,
        "private": row.private,
        "deals_requested": row.deals_requested,
        "deals_played": sum(1 for d in deals if d.status == "finished" and _counts_toward_list(d.record)),
        "seats": [{"seat": s.seat, "kind": s.kind, "name": f"{s.bot} bot" if s.kind == "bot" else s.name, "bot": s.bot} for s in row.seats],
        "turn_seconds": row.turn_seconds,
        "continue_seconds": row.continue_seconds,
        "rated": row.rated,
        "learning": row.options.get(LEARNING) is True,
        "replay_of": replay.deal if (replay := ReplayOf.from_options(row.options)) is not None else None,
    }


def _counts_toward_list(record: str | None) -> bool:
    """Whether a finished deal counts toward its table's list: one thrown in and dealt again (``redeal``) does not (issue 40, defect 10)."""
    try:
        result = json.loads(record or "{}").get("result") or {}
    except (ValueError, AttributeError):
        return True
    return not (isinstance(result, dict) and result.get("redeal") is True)


@router.post("/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinTable, request: Request, response: Response) -> dict[str, Any]:
    """Take a seat (the one given, or the first free one); a private table needs its invite token."""
    svc = services(request)
    runtime = svc.tables.get(table_id)
    if runtime is None and not svc.tables.shared:
        raise ApiError(404, "table", "no such open or running table")
    async with player(request, response) as identity:
        if runtime is None:  # another worker runs it (or nobody does)
            return await _forward(svc, table_id, "join", identity, {"seat": body.seat, "invite": body.invite})
        await runtime.join(identity, body.seat, body.invite)
    return runtime.summary(identity)


async def _forward(svc: Services, table_id: str, method: str, identity: Identity, args: dict[str, Any]) -> dict[str, Any]:
    """A table call carried out by the worker running the table (:mod:`stich.web.cluster`), or 404 when none does."""
    answer = await svc.tables.forward(table_id, method, identity, args)
    if answer is None:
        raise ApiError(404, "table", "no such open or running table")
    return answer


@router.post("/tables/{table_id}/leave")
async def leave_table(table_id: str, request: Request) -> dict[str, Any]:
    """Give up your seat before the table starts."""
    svc = services(request)
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session")
    if svc.tables.shared and svc.tables.get(table_id) is None:
        return await _forward(svc, table_id, "leave", identity, {})
    runtime = _runtime(svc, table_id, identity, None)
    await runtime.leave(identity)
    return runtime.summary(identity)


@router.post("/tables/{table_id}/bots")
async def add_bots(table_id: str, body: AddBots, request: Request) -> dict[str, Any]:
    """Fill empty seats (all, or those listed) with a bot (a spec from ``GET /api/bots``); the table starts when it is full."""
    svc = services(request)
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session")
    owner = Owner.of(identity, request_address(request))
    if svc.tables.shared and svc.tables.get(table_id) is None:
        return await _forward(svc, table_id, "bots", identity, {"bot": body.bot, "seats": body.seats, "address": owner.address})
    runtime = _runtime(svc, table_id, identity, None)
    await runtime.add_bots(identity, body.bot, body.seats, owner)
    return runtime.summary(identity)


@router.get("/tables/{table_id}/deals")
async def table_deals(table_id: str, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """The table's deals: each commitment, and for finished deals the revealed seed, salt and record link."""
    svc = services(request)
    identity = await current_identity(request)
    row = await asyncio.to_thread(svc.db.get_table, table_id)
    if row is None or not row_may_see(row, identity, invite):
        raise ApiError(404, "table", "no such table")
    deals = await asyncio.to_thread(svc.db.deals_of, table_id)
    return {"table": table_id, "deals": [_deal_json(d) for d in deals]}


# ------------------------------------------------------------------ deals
async def visible_deal(request: Request, deal_id: int, invite: str | None) -> DealRow:
    """The deal ``deal_id`` if the requester may see its table (membership, creator or invite for a private one), else 404 ``deal``."""
    svc = services(request)
    deal = await asyncio.to_thread(svc.db.get_deal, deal_id)
    row = await asyncio.to_thread(svc.db.get_table, deal.table_id) if deal is not None else None
    if deal is None or row is None or not row_may_see(row, await current_identity(request), invite):
        raise ApiError(404, "deal", "no such deal")
    return deal


@router.get("/deals/{deal_id}")
async def get_deal(deal_id: int, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
    """A deal's commitment; once it is finished also its seed and salt."""
    return _deal_json(await visible_deal(request, deal_id, invite))


@router.get("/deals/{deal_id}/record")
async def deal_record_download(deal_id: int, request: Request, invite: Annotated[str | None, Query(max_length=100)] = None) -> Response:
    """The finished deal's record (the format of ``stich.core.records``); 409 while the deal is played."""
    deal = await visible_deal(request, deal_id, invite)
    if deal.status != "finished" or deal.record is None:
        raise ApiError(409, "deal", "the deal is still being played; its record is written when it ends")
    return Response(
        content=deal.record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="stich-deal-{deal.id}.json"'},
    )
