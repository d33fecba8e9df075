"""Accounts and guests: ``/api/auth`` (register, login, logout, me, guest) and ``/api/account`` (password, deletion, export).

* Passwords are hashed with Argon2id on a pool of their own
  (:class:`~stich.web.guards.passwords.Passwords`); a login for an unknown
  name still spends one hash, so timing does not tell which names exist.
* Logging in or registering gives the browser a new session token
  (:mod:`stich.web.api.session`; no session fixation) but keeps the session,
  so a guest's seats carry over.
* ``POST /api/auth/guest`` chooses a guest's name.  Account and guest names
  follow one rule (:mod:`stich.web.guards.names`); a guest may not go by an
  account's name.
* Login attempts are counted before the password is checked, per account
  name and client address and per address across names
  (:mod:`stich.web.guards.login_limit`); past a limit the answer is 429 with
  ``Retry-After``, whatever the password.  Registration attempts count
  there too, and a taken name is refused before any hash; new accounts are
  limited per address and hour (``accounts_per_address``).
* ``/api/account`` is the account page (issue 44): changing the password
  (the old one required; every other session of the account ends), deleting
  the account (password required; its finished deals stay for the others,
  the seat anonymised: :mod:`stich.web.storage.account_store`, decision
  0056) and downloading one's own data as JSON.  Each password given there
  is counted like a login attempt, so it is no way round the login limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stich.web.api.services import Services, services
from stich.web.api.session import current_identity, guest_name, new_session, rotate_session
from stich.web.guards.client_address import client_address
from stich.web.guards.login_limit import Attempt
from stich.web.guards.names import DELETED_PLAYER, NAME_RULE, BadName, checked_name, name_key, reserved
from stich.web.guards.passwords import HashersBusy
from stich.web.identity import Identity
from stich.web.protocol import WHOLE, ApiError
from stich.web.storage import account_store, social
from stich.web.storage.db import Database, NameTaken
from stich.web.storage.login_sessions import COOKIE_NAME, hash_token
from stich.web.storage.models import utcnow

log = logging.getLogger(__name__)

MIN_PASSWORD = 8
MAX_PASSWORD = 256


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


NAME_FIELD_LENGTH = 64
"""Longest ``name`` a body may carry; white space is trimmed and collapsed before the name rule's 24 characters are counted."""


class Credentials(_Body):
    """Body of register and login."""

    name: Annotated[str, Field(min_length=1, max_length=NAME_FIELD_LENGTH)]
    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class GuestBody(_Body):
    """Body of ``POST /api/auth/guest``."""

    name: Annotated[str, Field(min_length=1, max_length=NAME_FIELD_LENGTH)] | None = None


def check_name(name: str, field: str = "name") -> str:
    """``name`` normalised by the name rule (:mod:`stich.web.guards.names`), or a 422 :class:`ApiError` (the rule, or a reserved name)."""
    try:
        checked = checked_name(name)
    except BadName:
        raise ApiError(422, field, NAME_RULE["en"]) from None
    if reserved(checked):
        raise ApiError(422, field, f"the name {checked!r} is reserved for the seats of deleted accounts")
    return checked


def _busy() -> ApiError:
    return ApiError(503, WHOLE, "the server is busy checking passwords; try again in a moment", {"Retry-After": "1"})


router = APIRouter(prefix="/api/auth", tags=["accounts"])


REGISTER_KEY = "#register"
"""The login limiter's name key for registration attempts (no name can start with ``#``): they count like failed logins."""
ACCOUNTS_KEY = "#accounts"
"""The sign-up limiter's name key: accounts made from one address."""


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account and log in; a guest's seats carry over to the account.

    The cheap checks come first and the hash last: the name rule and the
    password length; then the attempt is counted like a login attempt
    (429 ``name`` past the login limits, so registering is no free hashing
    service); a taken name is refused (409) before any hash is made; then
    the address's new accounts are counted (429 ``accounts`` past
    ``accounts_per_address`` within ``accounts_window_seconds``, since an
    account lifts the guest's bot level cap).  A refusal after counting takes
    back only what did not happen: a busy hasher (503) and a name taken at
    the last moment uncount the account.
    """
    svc = services(request)
    name = check_name(body.name)
    if len(body.password) < MIN_PASSWORD:
        raise ApiError(422, "password", f"must be at least {MIN_PASSWORD} characters")
    address = client_address(request, svc.settings.trusted_proxies)
    attempt = await svc.limiter.abegin(REGISTER_KEY, address)
    if isinstance(attempt, int):
        log.info("registration from %s refused: too many attempts (retry in %d s)", address, attempt)
        raise ApiError(429, "name", f"too many registration attempts; try again in {attempt} s", {"Retry-After": str(attempt)})
    await svc.limiter.afailed(attempt)  # every attempt stays counted, like a failed login
    if await asyncio.to_thread(svc.db.find_user, name) is not None:
        raise ApiError(409, "name", "this name is taken")
    signup = await svc.signups.abegin(ACCOUNTS_KEY, address)
    if isinstance(signup, int):
        log.info("registration from %s refused: too many new accounts (retry in %d s)", address, signup)
        message = f"too many new accounts from your address; try again in {signup} s"
        raise ApiError(429, "accounts", message, {"Retry-After": str(signup)})
    try:
        password_hash = await svc.passwords.make(body.password)
    except HashersBusy:
        await svc.signups.acancelled(signup)
        raise _busy() from None
    try:
        user_id = await asyncio.to_thread(svc.db.create_user, name, password_hash)
    except NameTaken:
        await svc.signups.acancelled(signup)
        raise ApiError(409, "name", "this name is taken") from None
    await svc.signups.afailed(signup)  # the account counts for the whole window
    current = await current_identity(request)
    if current is not None and current.guest:
        identity = await rotate_session(request, response, svc, current, name, user_id)
    else:
        identity = await new_session(request, response, svc, name, user_id)
    return identity.to_json()


async def _begin_login(svc: Services, request: Request, name: str) -> Attempt:
    """Count this attempt before anything is checked, or refuse it (429 with ``Retry-After``) past a limit."""
    attempt = await svc.limiter.abegin(name_key(name), client_address(request, svc.settings.trusted_proxies))
    if isinstance(attempt, int):
        raise ApiError(429, "name", f"too many failed logins; try again in {attempt} s", {"Retry-After": str(attempt)})
    return attempt


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Log in; 401 for a wrong name or password, 429 with ``Retry-After`` after too many failures."""
    svc = services(request)
    attempt = await _begin_login(svc, request, body.name)
    found = await asyncio.to_thread(svc.db.find_user, body.name)
    stored = found[2] if found else None
    try:
        ok = await svc.passwords.check(stored, body.password)
    except HashersBusy:
        await svc.limiter.acancelled(attempt)
        raise _busy() from None
    if not ok or found is None:
        await svc.limiter.afailed(attempt)
        raise ApiError(401, "password", "wrong name or password")
    await svc.limiter.asucceeded(attempt)
    user_id, name, _ = found
    if svc.passwords.needs_rehash(stored or ""):
        with contextlib.suppress(HashersBusy):  # when busy, the stronger hash is made at a later login
            await asyncio.to_thread(svc.db.set_password_hash, user_id, await svc.passwords.make(body.password))
    current = await current_identity(request)
    if current is not None and (current.guest or current.user_id == user_id):
        identity = await rotate_session(request, response, svc, current, name, user_id)
    else:
        identity = await new_session(request, response, svc, name, user_id)
    return identity.to_json()


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """End the session: its token stops working and the cookie is cleared."""
    identity = await current_identity(request)
    if identity is not None:
        svc = services(request)
        await asyncio.to_thread(
            svc.db.update_session,
            identity.session_id,
            token_hash=hash_token(secrets.token_urlsafe(32)),
            user_id=identity.user_id,
            display_name=identity.name,
            expires_at=utcnow(),
        )
        await svc.tables.session_changed(identity.session_id)
        await svc.online.gone(identity)
    response.delete_cookie(COOKIE_NAME, path="/")
    return {"ok": True}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    """Who the session belongs to; 401 without a session."""
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session; log in or play as a guest")
    return identity.to_json()


@router.post("/guest")
async def guest(body: GuestBody, request: Request, response: Response) -> dict[str, Any]:
    """Play as a guest: makes a guest session, or renames the current guest."""
    svc = services(request)
    name = check_name(body.name) if body.name is not None else guest_name()
    current = await current_identity(request)
    if current is not None and not current.guest:
        raise ApiError(409, "session", "you are logged in; log out to play as a guest")
    if body.name is not None and await asyncio.to_thread(svc.db.find_user, name) is not None:
        raise ApiError(409, "name", "this name belongs to an account; log in, or choose another name")
    if current is not None:
        identity = await rotate_session(request, response, svc, current, name, None)
    else:
        identity = await new_session(request, response, svc, name, None)
    return identity.to_json()


# ------------------------------------------------------------------ the account page
account_router = APIRouter(prefix="/api/account", tags=["accounts"])
"""``/api/account``: what a logged-in person does with their own account (issue 44, "Accounts people can trust")."""

EXPORT_FORMAT = "stich-account-export/1"
"""The ``format`` of the file ``GET /api/account/export`` hands out."""


class PasswordChange(_Body):
    """Body of ``POST /api/account/password``."""

    old_password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]
    new_password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class Deletion(_Body):
    """Body of ``POST /api/account/delete``."""

    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


async def _account_identity(request: Request) -> Identity:
    """The logged-in account asking: 401 without a session, 403 for a guest (a guest has no account to change)."""
    identity = await current_identity(request)
    if identity is None:
        raise ApiError(401, "session", "no session; log in first")
    if identity.user_id is None:
        raise ApiError(403, "session", "guests have no account; register or log in first")
    return identity


async def _check_password(request: Request, identity: Identity, password: str, field: str) -> None:
    """The account's password, checked like a login (counted first, 429 past the limits, 401 ``field`` when wrong)."""
    svc = services(request)
    assert identity.user_id is not None
    attempt = await _begin_login(svc, request, identity.name)
    stored = await asyncio.to_thread(account_store.password_hash, svc.db, identity.user_id)
    try:
        ok = await svc.passwords.check(stored, password)
    except HashersBusy:
        await svc.limiter.acancelled(attempt)
        raise _busy() from None
    if not ok or stored is None:
        await svc.limiter.afailed(attempt)
        raise ApiError(401, field, "wrong password")
    await svc.limiter.asucceeded(attempt)


@account_router.post("/password")
async def change_password(body: PasswordChange, request: Request, response: Response) -> dict[str, Any]:
    """Change the password: the old one is required; every other session of the account is logged out, this one gets a new token."""
    svc = services(request)
    identity = await _account_identity(request)
    assert identity.user_id is not None
    if len(body.new_password) < MIN_PASSWORD:
        raise ApiError(422, "new_password", f"must be at least {MIN_PASSWORD} characters")
    await _check_password(request, identity, body.old_password, "old_password")
    try:
        new_hash = await svc.passwords.make(body.new_password)
    except HashersBusy:
        raise _busy() from None
    ended = await asyncio.to_thread(account_store.change_password, svc.db, identity.user_id, new_hash, identity.session_id)
    for session_id in ended:
        await svc.tables.session_changed(session_id)
    await rotate_session(request, response, svc, identity, identity.name, identity.user_id)
    return {"ok": True, "sessions_ended": len(ended)}


@account_router.post("/delete")
async def delete_account(body: Deletion, request: Request, response: Response) -> dict[str, Any]:
    """Delete the account (password required); its finished deals stay, with the seat named "deleted player" (decision 0056).

    409 ``tables`` while the account sits at an open or running table: it
    leaves them (or lets them finish) first.
    """
    svc = services(request)
    identity = await _account_identity(request)
    assert identity.user_id is not None
    await _check_password(request, identity, body.password, "password")
    try:
        ended = await asyncio.to_thread(account_store.delete_account, svc.db, identity.user_id)
    except account_store.StillSeated as exc:
        ids = ", ".join(exc.table_ids)
        raise ApiError(409, "tables", f"you still sit at open or running tables ({ids}); leave them or let them finish first") from None
    svc.tables.anonymise_finished(identity.user_id, ended, DELETED_PLAYER)
    for session_id in ended:
        await svc.tables.session_changed(session_id)
    await svc.online.gone(identity)
    response.delete_cookie(COOKIE_NAME, path="/")
    log.info("account %d deleted; its seats now read %r", identity.user_id, DELETED_PLAYER)
    return {"ok": True, "deleted_player": DELETED_PLAYER}


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def export_ratings(db: Database, user_id: int) -> list[dict[str, Any]]:
    """The account's rating in every pool it played rated deals in, each with its whole history (decision 0055)."""
    player = f"user:{user_id}"
    return [
        {
            "pool": rating.pool,
            "rating": round(rating.ordinal, 2),
            "mu": rating.mu,
            "sigma": rating.sigma,
            "deals": rating.deals,
            "won": rating.won,
            "lost": rating.lost,
            "history": [
                {
                    "deal": point.deal_id,
                    "at": point.at.isoformat(),
                    "rating": round(point.rating, 2),
                    "outcome": point.outcome,
                    "absent": point.absent,
                }
                for point in db.ratings.history(player, rating.pool, limit=rating.deals)
            ],
        }
        for rating in db.ratings.ratings_of(player)
    ]


def export_data(
    found: account_store.AccountRow,
    tables: Any,
    deals: list[account_store.OwnDeal],
    friends: list[str],
    ratings: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The account's data as one JSON object: the account, its friends, ratings, tables and deals, each seen from its own seat.

    A finished deal carries its whole record (its seed is public once it
    ends, as on the table page); a deal still being played carries only its
    number and status, never a card: nothing of it is public yet.
    """
    return {
        "format": EXPORT_FORMAT,
        "exported_at": utcnow().isoformat(),
        "account": {"name": found.name, "created_at": found.created_at.isoformat()},
        "settings": None,
        "settings_note": "table settings are kept in the browser; the account page adds this browser's to the download",
        "friends": friends,
        "ratings": ratings or [],
        "tables": [
            {
                "id": row.id,
                "game": row.game,
                "status": row.status,
                "private": row.private,
                "deals_requested": row.deals_requested,
                "created_at": row.created_at.isoformat(),
                "your_seat": seat,
                "players": [s.name if s.kind == "human" else (f"{s.bot} bot" if s.kind == "bot" else None) for s in row.seats],
            }
            for row, seat in tables
        ],
        "deals": [
            {
                "id": deal.id,
                "table": deal.table_id,
                "number": deal.number,
                "status": deal.status,
                "your_seat": deal.seat,
                "finished_at": _iso(deal.finished_at),
                "record": json.loads(deal.record) if deal.status == "finished" and deal.record else None,
            }
            for deal in deals
        ],
    }


@account_router.get("/export")
async def export_account(request: Request) -> Response:
    """Download one's own data (``stich-account-<name>.json``): account, tables, deals with their records from one's seat."""
    svc = services(request)
    identity = await _account_identity(request)
    assert identity.user_id is not None
    found = await asyncio.to_thread(account_store.account, svc.db, identity.user_id)
    if found is None:  # pragma: no cover - deleted between the session check and now
        raise ApiError(401, "session", "no such account")
    tables, deals = await asyncio.to_thread(account_store.own_tables, svc.db, identity.user_id, identity.session_id)
    friends = [friend.name for friend in await asyncio.to_thread(social.friends_of, svc.db, identity.user_id)]
    ratings = await asyncio.to_thread(export_ratings, svc.db, identity.user_id)
    data = export_data(found, tables, deals, friends, ratings)
    return Response(
        content=json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="stich-account.json"', "Cache-Control": "no-store"},
    )
