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
  ``Gast-3f9a``; ``POST /api/auth/guest`` chooses the name.
* Failed logins are limited per account name and client address
  (:class:`LoginLimiter`); past the limit the answer is 429 with
  ``Retry-After``, whatever the password.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from stich.web.db import NameTaken
from stich.web.models import utcnow
from stich.web.protocol import ApiError
from stich.web.services import Services, services

COOKIE_NAME = "stich_session"
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
"""Hosts on which the cookie is sent without ``Secure`` (plain HTTP on one's own machine)."""
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")
"""Account names: 3 to 32 letters, digits, ``_``, ``.`` or ``-``, starting with a letter or digit."""
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


class Passwords:
    """Argon2id hashing with a constant-time path for unknown accounts."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))

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


class LoginLimiter:
    """Failed logins per (account, address) in a sliding window; in memory, per server process."""

    def __init__(self, max_failures: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self._failures: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, key: tuple[str, str]) -> deque[float]:
        now = self.clock()
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, account: str, address: str) -> int | None:
        """Seconds until another attempt is allowed, or ``None`` if one is allowed now."""
        failures = self._recent((account.casefold(), address))
        if len(failures) < self.max_failures:
            return None
        return max(1, math.ceil(failures[0] + self.window - self.clock()))

    def failed(self, account: str, address: str) -> None:
        """Count one failed attempt."""
        key = (account.casefold(), address)
        self._failures.setdefault(key, deque()).append(self.clock())
        if len(self._failures) > 100_000:  # bound the memory an attacker can make us use
            for stale in [k for k in list(self._failures) if not self._recent(k)]:
                self._failures.pop(stale, None)

    def succeeded(self, account: str, address: str) -> None:
        """Forget the failures of an account and address after a successful login."""
        self._failures.pop((account.casefold(), address), None)


def hash_token(token: str) -> str:
    """SHA-256 of a session token, as stored."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


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
    set_session_cookie(request, response, token, int(lifetime.total_seconds()))
    return Identity(identity.session_id, user_id, name)


def guest_name() -> str:
    """A fresh guest name, e.g. ``Gast-3f9a``."""
    return f"Gast-{secrets.token_hex(2)}"


async def identity_or_guest(request: Request, response: Response) -> Identity:
    """The request's identity, making a guest session (and setting its cookie) if there is none."""
    identity = await current_identity(request)
    if identity is not None:
        return identity
    return await _new_session(request, response, services(request), guest_name(), None)


# ------------------------------------------------------------------ routes
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class Credentials(_Body):
    """Body of register and login."""

    name: Annotated[str, Field(min_length=1, max_length=32)]
    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class GuestBody(_Body):
    """Body of ``POST /api/auth/guest``."""

    name: Annotated[str, Field(min_length=1, max_length=24)] | None = None


def check_display_name(name: str, field: str = "name") -> str:
    """A display name without control characters or surrounding space, or an :class:`ApiError`."""
    cleaned = name.strip()
    if not cleaned:
        raise ApiError(422, field, "must not be empty")
    if any(not ch.isprintable() for ch in cleaned):
        raise ApiError(422, field, "must not contain control characters")
    return cleaned


router = APIRouter(prefix="/api/auth", tags=["accounts"])


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account and log in; a guest's seats carry over to the account."""
    svc = services(request)
    if not USER_NAME.match(body.name):
        raise ApiError(422, "name", "3 to 32 letters, digits, '_', '.' or '-', starting with a letter or digit")
    if len(body.password) < MIN_PASSWORD:
        raise ApiError(422, "password", f"must be at least {MIN_PASSWORD} characters")
    password_hash = await asyncio.to_thread(svc.passwords.hash, body.password)
    try:
        user_id = await asyncio.to_thread(svc.db.create_user, body.name, password_hash)
    except NameTaken:
        raise ApiError(409, "name", "this name is taken") from None
    current = await current_identity(request)
    if current is not None and current.guest:
        identity = await _rotate(request, response, svc, current, body.name, user_id)
    else:
        identity = await _new_session(request, response, svc, body.name, user_id)
    return identity.to_json()


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Log in; 401 for a wrong name or password, 429 with ``Retry-After`` after too many failures."""
    svc = services(request)
    address = _client_address(request)
    wait = svc.limiter.retry_after(body.name, address)
    if wait is not None:
        raise ApiError(429, "name", f"too many failed logins; try again in {wait} s", {"Retry-After": str(wait)})
    found = await asyncio.to_thread(svc.db.find_user, body.name)
    stored = found[2] if found else None
    ok = await asyncio.to_thread(svc.passwords.verify, stored, body.password)
    if not ok or found is None:
        svc.limiter.failed(body.name, address)
        raise ApiError(401, "password", "wrong name or password")
    svc.limiter.succeeded(body.name, address)
    user_id, name, _ = found
    if svc.passwords.needs_rehash(stored or ""):
        await asyncio.to_thread(svc.db.set_password_hash, user_id, await asyncio.to_thread(svc.passwords.hash, body.password))
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
    name = check_display_name(body.name) if body.name is not None else guest_name()
    current = await current_identity(request)
    if current is not None and not current.guest:
        raise ApiError(409, "session", "you are logged in; log out to play as a guest")
    if current is not None:
        identity = await _rotate(request, response, svc, current, name, None)
    else:
        identity = await _new_session(request, response, svc, name, None)
    return identity.to_json()
