"""The session cookie: who is asking, and a guest session made on first need.

A session is a random 256-bit token in the cookie ``stich_session`` (HttpOnly, SameSite=Lax,
Secure unless the server is reached as localhost); the database keeps only its SHA-256, so a copy
of the database opens no session.  Guests play without an account: the first request that needs a
player (creating or joining a table) makes a guest session with a name like ``Gast-3f9a``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from datetime import timedelta

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from stich.web.api.services import Services, services
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.storage.login_sessions import COOKIE_NAME, cookie_identity, hash_token
from stich.web.storage.models import utcnow

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
"""Hosts on which the cookie is sent without ``Secure`` (plain HTTP on one's own machine)."""


def set_session_cookie(request: Request, response: Response, token: str, max_age: int) -> None:
    """Set the session cookie: HttpOnly, SameSite=Lax, Secure unless reached as localhost."""
    secure = (request.url.hostname or "") not in LOCAL_HOSTS
    response.set_cookie(COOKIE_NAME, token, max_age=max_age, httponly=True, samesite="lax", secure=secure, path="/")


async def current_identity(connection: HTTPConnection) -> Identity | None:
    """The identity of a valid session cookie, or ``None``."""
    return await cookie_identity(services(connection).db, connection.cookies)


async def new_session(request: Request, response: Response, svc: Services, name: str, user_id: int | None) -> Identity:
    token = secrets.token_urlsafe(32)
    lifetime = timedelta(days=svc.settings.session_days)
    session_id = await asyncio.to_thread(svc.db.create_session, hash_token(token), name, user_id, utcnow() + lifetime)
    set_session_cookie(request, response, token, int(lifetime.total_seconds()))
    return Identity(session_id, user_id, name)


async def rotate_session(
    request: Request, response: Response, svc: Services, identity: Identity, name: str, user_id: int | None
) -> Identity:
    """Give a session a new token, user and name (login, register, renaming a guest)."""
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
    return await new_session(request, response, services(request), guest_name(), None)


@contextlib.asynccontextmanager
async def player(request: Request, response: Response) -> AsyncIterator[Identity]:
    """:func:`identity_or_guest` for a request that may still be refused: a guest made for it is deleted again on refusal.

    A refused ``join`` (or table) thus leaves no guest session row behind;
    the refusal's response carries no cookie either.
    """
    known = await current_identity(request)
    identity = known if known is not None else await new_session(request, response, services(request), guest_name(), None)
    try:
        yield identity
    except ApiError:
        if known is None:
            svc = services(request)
            await asyncio.to_thread(svc.db.delete_session, identity.session_id)
            await svc.tables.session_changed(identity.session_id)
        raise
