"""Accounts and guests: ``/api/auth`` (register, login, logout, me, guest).

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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from stich.web.api.services import Services, services
from stich.web.api.session import current_identity, guest_name, new_session, rotate_session
from stich.web.guards.client_address import client_address
from stich.web.guards.login_limit import Attempt
from stich.web.guards.names import NAME_RULE, BadName, checked_name, name_key
from stich.web.guards.passwords import HashersBusy
from stich.web.protocol import WHOLE, ApiError
from stich.web.storage.db import NameTaken
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
    """``name`` normalised by the name rule (:mod:`stich.web.guards.names`), or a 422 :class:`ApiError` quoting the rule."""
    try:
        return checked_name(name)
    except BadName:
        raise ApiError(422, field, NAME_RULE["en"]) from None


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
