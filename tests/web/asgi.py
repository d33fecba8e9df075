"""Concurrent requests against a started app: httpx's AsyncClient on the ASGI app, its lifespan run around it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from stich.web.app import create_app
from stich.web.guards.passwords import Passwords
from stich.web.settings import Settings

from .helpers import FAST_HASHER


@asynccontextmanager
async def started(settings: Settings, passwords: Passwords | None = None) -> AsyncIterator[httpx.AsyncClient]:
    """The app built from ``settings``, started, with a client whose requests come from 127.0.0.1."""
    app = create_app(settings, passwords or Passwords(FAST_HASHER))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
            yield client
