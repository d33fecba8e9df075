"""Invite notices (issue 44): a person invited to a table sees a notice in the lobby and accepts (takes the seat) or declines it.

* ``GET /api/invites``: one's notices at tables still open or running.
* ``POST /api/invites/{id}/accept``: take the seat the notice keeps (or the
  first free one), with the table's invite token where the table is private:
  the notice is the invitation.  The join is the table's own
  (:meth:`~stich.web.runtime.table.TableRuntime.join`), forwarded to the
  worker running the table where there are several.
* ``POST /api/invites/{id}/decline``: the notice goes.

Notices come from a Revanche (:mod:`stich.web.api.table_end`) and from
inviting a friend (:mod:`stich.web.api.friends`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from stich.web.api.services import count_action, services
from stich.web.api.session import current_identity, player
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.storage import social
from stich.web.storage.db import TableRow

router = APIRouter(prefix="/api/invites", tags=["lobby"])


async def _identity(request: Request) -> Identity:
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session")
    return identity


def _seated(row: TableRow, identity: Identity) -> bool:
    """Whether the person already sits at the table (an invite to it has nothing left to offer)."""
    return any(
        seat.kind == "human" and (seat.session_id == identity.session_id or (seat.user_id is not None and seat.user_id == identity.user_id))
        for seat in row.seats
    )


@router.get("")
async def my_invites(request: Request) -> dict[str, Any]:
    """The invite notices to this person at tables still open or running, newest first."""
    svc = services(request)
    identity = await current_identity(request)
    if identity is None:
        return {"invites": []}
    found = await asyncio.to_thread(social.invites_for, svc.db, identity.user_id, identity.session_id)
    tables = {i.table_id: await asyncio.to_thread(svc.db.get_table, i.table_id) for i in found}
    return {
        "invites": [
            {
                "id": i.id,
                "table": i.table_id,
                "from": i.from_name,
                "seat": i.seat,
                "game": row.game,
                "game_name": row.game_name,
                "created_at": i.created_at.isoformat(),
            }
            for i in found
            if (row := tables[i.table_id]) is not None and not _seated(row, identity)
        ]
    }


@router.post("/{invite_id}/accept")
async def accept_invite(invite_id: int, request: Request, response: Response) -> dict[str, Any]:
    """Take the seat the notice keeps (or the first free one): the table's summary, as after ``join``; 404 ``invite`` for no such notice."""
    svc = services(request)
    identity = await _identity(request)
    await count_action(request, "invites", identity)
    invite = await asyncio.to_thread(social.find_invite, svc.db, invite_id, identity.user_id, identity.session_id)
    if invite is None:
        raise ApiError(404, "invite", "no such invite")
    row = await asyncio.to_thread(svc.db.get_table, invite.table_id)
    if row is None or row.status == "finished":
        raise ApiError(409, "table", "the table has finished")
    token = row.invite_token if row.private else None
    seat = invite.seat
    if seat is not None and not (0 <= seat < len(row.seats) and row.seats[seat].kind == "empty"):
        seat = None  # the kept seat is taken (the table was public): any free seat
    async with player(request, response) as person:
        runtime = svc.tables.get(invite.table_id)
        if runtime is None:
            answer = await svc.tables.forward(invite.table_id, "join", person, {"seat": seat, "invite": token})
            if answer is None:
                raise ApiError(404, "table", "no such open or running table")
        else:
            await runtime.join(person, seat, token)
            answer = runtime.summary(person)
    await asyncio.to_thread(social.take_invite, svc.db, invite_id, identity.user_id, identity.session_id)  # kept until the join worked
    return answer


@router.post("/{invite_id}/decline")
async def decline_invite(invite_id: int, request: Request) -> dict[str, Any]:
    """Drop the notice; 404 ``invite`` for no such notice."""
    svc = services(request)
    identity = await _identity(request)
    await count_action(request, "invites", identity)
    if await asyncio.to_thread(social.take_invite, svc.db, invite_id, identity.user_id, identity.session_id) is None:
        raise ApiError(404, "invite", "no such invite")
    return {"ok": True}
