"""Accounts, guests and session cookies.

* Passwords are hashed with Argon2id (``argon2-cffi``'s defaults); a login
  for an unknown name still spends one hash, so timing does not tell which
  names exist.
* A session is a random 256-bit token in the cookie ``stich_session``
  (HttpOnly, SameSite=Lax, Secure unless the server is reached as
  localhost); the database keeps only its SHA-256, so a copy of the database
  opens no session.  Logging in or registering gives the browser a new token
  (no session fixation) but keeps the session, so a guest's seats carry over.
* Guests play without an account: the first request that needs a player
  (creating or joining a table) makes a guest session with a name like
  ``Gast-3f9a``; ``POST /api/auth/guest`` chooses the name.  Account and
  guest names follow one rule (:mod:`stich.web.names`); a guest may not go
  by an account's name.
* Login attempts are counted before the password is checked, per account
  name and client address and per address across names
  (:mod:`stich.web.login_limit`); past a limit the answer is 429 with
  ``Retry-After``, whatever the password.  Registration attempts count
  there too, and a taken name is refused before any hash; new accounts are
  limited per address and hour (``accounts_per_address``).  Hashes run on a small pool of
  their own (:class:`Passwords`), so logins cannot hold up other requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from stich.web.client_address import client_address
from stich.web.db import NameTaken
from stich.web.login_limit import Attempt
from stich.web.login_limit import LoginLimiter as LoginLimiter  # re-exported: the app builds it, Services names it
from stich.web.models import utcnow
from stich.web.names import NAME_RULE, BadName, checked_name, name_key
from stich.web.protocol import WHOLE, ApiError
from stich.web.services import Services, services

_T = TypeVar("_T")
log = logging.getLogger(__name__)

COOKIE_NAME = "stich_session"
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
"""Hosts on which the cookie is sent without ``Secure`` (plain HTTP on one's own machine)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256


@dataclass(frozen=True)
class Identity:
    """Who is making a request: a session, its user (``None`` for a guest) and the name shown at tables."""

    session_id: int
    user_id: int | None
    name: str

    @property
    def guest(self) -> bool:
        """Whether this is a guest without an account."""
        return self.user_id is None

    def to_json(self) -> dict[str, Any]:
        """JSON form (``GET /api/auth/me``)."""
        return {"name": self.name, "guest": self.guest}


class HashersBusy(Exception):
    """More password checks are waiting than the server queues; the request is refused (503) rather than queued."""


class Passwords:
    """Argon2id hashing with a constant-time path for unknown accounts, on a small pool of its own.

    The server hashes through :meth:`check` and :meth:`make`, which run on a
    pool of ``workers`` threads of their own (opened by :meth:`open_pool`
    for the app's lifetime) and queue at most ``max_waiting`` more.  Argon2
    is built to be slow and memory-hungry: run in the shared worker threads
    that the database calls use, 30 parallel logins filled them all and held
    up every other request (a bystander's 3 ms request took 1.9 s).  Here
    only as many hashes run as there are hashing threads, and everything
    else goes on.
    """

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))
        self._pool: ThreadPoolExecutor | None = None
        self._slots = 0
        self._taken = 0

    def open_pool(self, workers: int, max_waiting: int) -> None:
        """Start the hashing threads: ``workers`` hashes at once, ``max_waiting`` more queued, the rest refused."""
        self.close_pool()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stich-argon2")
        self._slots = workers + max_waiting

    def close_pool(self) -> None:
        """Stop the hashing threads (queued hashes are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _on_pool(self, work: Callable[[], _T]) -> _T:
        if self._pool is None:
            raise RuntimeError("the password pool is not open (Passwords.open_pool)")
        if self._taken >= self._slots:
            raise HashersBusy
        self._taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self._taken -= 1

    async def check(self, stored: str | None, password: str) -> bool:
        """:meth:`verify` on the hashing pool; raises :class:`HashersBusy` when its queue is full."""
        return await self._on_pool(lambda: self.verify(stored, password))

    async def make(self, password: str) -> str:
        """:meth:`hash` on the hashing pool; raises :class:`HashersBusy` when its queue is full."""
        return await self._on_pool(lambda: self.hash(password))

    def hash(self, password: str) -> str:
        """A new hash of ``password``."""
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: an unknown account, always false, same cost)."""
        try:
            return self.hasher.verify(stored if stored is not None else self._dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with weaker parameters than the current ones."""
        return self.hasher.check_needs_rehash(stored)


def hash_token(token: str) -> str:
    """SHA-256 of a session token, as stored."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def set_session_cookie(request: Request, response: Response, token: str, max_age: int) -> None:
    """Set the session cookie: HttpOnly, SameSite=Lax, Secure unless reached as localhost."""
    secure = (request.url.hostname or "") not in LOCAL_HOSTS
    response.set_cookie(COOKIE_NAME, token, max_age=max_age, httponly=True, samesite="lax", secure=secure, path="/")


async def current_identity(connection: HTTPConnection) -> Identity | None:
    """The identity of a valid session cookie, or ``None``."""
    token = connection.cookies.get(COOKIE_NAME)
    if not token or len(token) > 200:
        return None
    row = await asyncio.to_thread(services(connection).db.find_session, hash_token(token))
    if row is None:
        return None
    return Identity(row.id, row.user_id, row.display_name)


async def _new_session(request: Request, response: Response, svc: Services, name: str, user_id: int | None) -> Identity:
    token = secrets.token_urlsafe(32)
    lifetime = timedelta(days=svc.settings.session_days)
    session_id = await asyncio.to_thread(svc.db.create_session, hash_token(token), name, user_id, utcnow() + lifetime)
    set_session_cookie(request, response, token, int(lifetime.total_seconds()))
    return Identity(session_id, user_id, name)


async def _rotate(request: Request, response: Response, svc: Services, identity: Identity, name: str, user_id: int | None) -> Identity:
    """Give an existing session a new token, user and name (login, register, renaming a guest)."""
    token = secrets.token_urlsafe(32)
    lifetime = timedelta(days=svc.settings.session_days)
    await asyncio.to_thread(
        svc.db.update_session,
        identity.session_id,
        token_hash=hash_token(token),
        user_id=user_id,
        display_name=name,
        expires_at=utcnow() + lifetime,
    )
    await svc.tables.session_changed(identity.session_id)
    set_session_cookie(request, response, token, int(lifetime.total_seconds()))
    return Identity(identity.session_id, user_id, name)


def guest_name() -> str:
    """A fresh guest name, e.g. ``Gast-3f9a`` (it follows the name rule)."""
    return f"Gast-{secrets.token_hex(2)}"


async def identity_or_guest(request: Request, response: Response) -> Identity:
    """The request's identity, making a guest session (and setting its cookie) if there is none."""
    identity = await current_identity(request)
    if identity is not None:
        return identity
    return await _new_session(request, response, services(request), guest_name(), None)


@contextlib.asynccontextmanager
async def player(request: Request, response: Response) -> AsyncIterator[Identity]:
    """:func:`identity_or_guest` for a request that may still be refused: a guest made for it is deleted again on refusal.

    A refused ``join`` (or table) thus leaves no guest session row behind;
    the refusal's response carries no cookie either.
    """
    known = await current_identity(request)
    identity = known if known is not None else await _new_session(request, response, services(request), guest_name(), None)
    try:
        yield identity
    except ApiError:
        if known is None:
            svc = services(request)
            await asyncio.to_thread(svc.db.delete_session, identity.session_id)
            await svc.tables.session_changed(identity.session_id)
        raise


# ------------------------------------------------------------------ routes
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
    """``name`` normalised by the name rule (:mod:`stich.web.names`), or a 422 :class:`ApiError` quoting the rule."""
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
        identity = await _rotate(request, response, svc, current, name, user_id)
    else:
        identity = await _new_session(request, response, svc, name, user_id)
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
        identity = await _rotate(request, response, svc, current, name, user_id)
    else:
        identity = await _new_session(request, response, svc, name, user_id)
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
        identity = await _rotate(request, response, svc, current, name, None)
    else:
        identity = await _new_session(request, response, svc, name, None)
    return identity.to_json()
