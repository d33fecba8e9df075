"""The people of the lobby (issue 44): who is online, friends, and inviting a friend to one's table.

* ``POST /api/online`` (every page, every 30 s) and ``GET /api/online`` (the
  lobby) put the asker on the online board; ``GET`` answers how many people
  are online and the names of the most recently seen.  The board is the
  shared one with several workers (:mod:`stich.web.cluster.online`).
* ``GET /api/friends``: one's friends (accounts only), each with whether
  they are online (from the same board) and the open or running tables they
  sit at that the asker may see: public ones, or private ones the asker
  belongs to; a private table is never named to anyone else.
* ``POST /api/friends`` ``{name}`` and ``DELETE /api/friends/{name}``: add
  (an account, not oneself; at most ``max_friends``) and remove.
* ``POST /api/tables/{id}/invite`` ``{name}``: invite a friend to an open
  table one sits at (or created): an invite notice for them
  (:mod:`stich.web.api.social`), whose accepting carries the private
  table's token.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from stich.web.api.accounts import NAME_FIELD_LENGTH, check_name
from stich.web.api.lobby import row_may_see
from stich.web.api.services import count_action, services
from stich.web.api.session import current_identity
from stich.web.api.table_end import seat_of
from stich.web.guards.action_limits import ONLINE
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.storage import social

router = APIRouter(prefix="/api", tags=["lobby"])


class NameBody(BaseModel):
    """A body naming one account."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=NAME_FIELD_LENGTH)]


async def _identity(request: Request) -> Identity:
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session")
    return identity


async def _account(request: Request) -> Identity:
    identity = await _identity(request)
    if identity.user_id is None:
        raise ApiError(403, "session", "friends lists are for accounts; register or log in first")
    return identity


# ------------------------------------------------------------------ online
@router.post("/online")
async def ping(request: Request) -> dict[str, Any]:
    """A page of the asker is open: on the online board for ``online_seconds``."""
    identity = await current_identity(request)
    await count_action(request, ONLINE, identity)
    if identity is not None:
        await services(request).online.seen(identity)
    return {"ok": True}


@router.get("/online")
async def who_is_online(request: Request) -> dict[str, Any]:
    """How many people are online, and the names of the most recently seen (the asker counts, once seen)."""
    svc = services(request)
    identity = await current_identity(request)
    if identity is not None:
        await svc.online.seen(identity)
    board = await svc.online.snapshot()
    return {"count": board.count, "names": list(board.names)}


# ------------------------------------------------------------------ friends
@router.get("/friends")
async def friends(request: Request) -> dict[str, Any]:
    """One's friends by name: whether each is online, and the tables they sit at that one may see."""
    svc = services(request)
    identity = await _account(request)
    assert identity.user_id is not None
    listed = await asyncio.to_thread(social.friends_of, svc.db, identity.user_id)
    ids = [friend.user_id for friend in listed]
    online = await svc.online.online_accounts(ids)
    tables = await asyncio.to_thread(social.seats_of_accounts, svc.db, ids)
    return {
        "friends": [
            {
                "name": friend.name,
                "online": friend.user_id in online,
                "tables": [
                    {"id": row.id, "game": row.game, "game_name": row.game_name, "status": row.status, "private": row.private}
                    for row in tables.get(friend.user_id, [])
                    if row_may_see(row, identity, None)
                ],
            }
            for friend in listed
        ]
    }


@router.post("/friends", status_code=201)
async def add_friend(body: NameBody, request: Request) -> dict[str, Any]:
    """Put the account ``name`` on one's friends list; 404 ``name`` for no such account, 409 for oneself or one already listed."""
    svc = services(request)
    identity = await _account(request)
    assert identity.user_id is not None
    await count_action(request, "friends", identity)
    name = check_name(body.name)
    found = await asyncio.to_thread(social.find_account, svc.db, name)
    if found is None:
        raise ApiError(404, "name", "no account has this name")
    friend_id, friend_name = found
    if friend_id == identity.user_id:
        raise ApiError(409, "name", "you cannot add yourself")
    if await asyncio.to_thread(social.count_friends, svc.db, identity.user_id) >= svc.settings.max_friends:
        raise ApiError(409, "friends", f"at most {svc.settings.max_friends} friends")
    if not await asyncio.to_thread(social.add_friend, svc.db, identity.user_id, friend_id):
        raise ApiError(409, "name", "already on your friends list")
    return {"name": friend_name}


@router.delete("/friends/{name}")
async def remove_friend(name: Annotated[str, Path(min_length=1, max_length=NAME_FIELD_LENGTH)], request: Request) -> dict[str, Any]:
    """Take ``name`` off one's friends list; 404 ``name`` when not on it."""
    svc = services(request)
    identity = await _account(request)
    assert identity.user_id is not None
    await count_action(request, "friends", identity)
    found = await asyncio.to_thread(social.find_account, svc.db, check_name(name))
    if found is None or not await asyncio.to_thread(social.remove_friend, svc.db, identity.user_id, found[0]):
        raise ApiError(404, "name", "not on your friends list")
    return {"ok": True}


# ------------------------------------------------------------------ invites
@router.post("/tables/{table_id}/invite", status_code=201)
async def invite_friend(table_id: str, body: NameBody, request: Request) -> dict[str, Any]:
    """Invite a friend to an open table one sits at (or created): an invite notice for them; 404 ``name`` unless they are a friend."""
    svc = services(request)
    identity = await _account(request)
    assert identity.user_id is not None
    await count_action(request, "invites", identity)
    row = await asyncio.to_thread(svc.db.get_table, table_id)
    if row is None or not row_may_see(row, identity, None):
        raise ApiError(404, "table", "no such table")
    if seat_of(row, identity) is None and identity.session_id != row.creator_session_id:
        raise ApiError(403, "table", "only the table's creator or its players may invite")
    if row.status != "open" or not any(seat.kind == "empty" for seat in row.seats):
        raise ApiError(409, "table", "the table has no free seat")
    name = check_name(body.name)
    listed = await asyncio.to_thread(social.friends_of, svc.db, identity.user_id)
    found = await asyncio.to_thread(social.find_account, svc.db, name)
    friend = next((f for f in listed if found is not None and f.user_id == found[0]), None)
    if friend is None:
        raise ApiError(404, "name", "only friends can be invited; add them first")
    await asyncio.to_thread(social.add_invite, svc.db, table_id, identity.name, friend.user_id, None, None)
    return {"ok": True, "name": friend.name}
