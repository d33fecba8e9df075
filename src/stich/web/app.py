"""The web server's FastAPI app: lobby REST API, table WebSockets, accounts, and a placeholder page.

:func:`create_app` builds an app from :class:`~stich.web.settings.Settings`.
At start (the app's lifespan) it applies the database migrations, loads the
open and running tables and resumes the running ones by replaying their
stored actions; at shutdown it stops the tables' background tasks.
``stich serve`` runs it with uvicorn; tests drive it with FastAPI's
``TestClient``.  ``docs/web.md`` describes the API and the protocol.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse

from stich import __version__
from stich.web import auth, lobby, tables
from stich.web.auth import LoginLimiter, Passwords
from stich.web.db import Database
from stich.web.protocol import WHOLE, ApiError, error_message, validation_field, validation_text
from stich.web.services import Services
from stich.web.settings import Settings
from stich.web.tables import TableManager

PLACEHOLDER = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>stich</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5">
<h1>stich</h1>
<p>This is a stich server for Doppelkopf and the Tapp/Tarock family.
The web client, where you play in the browser, is coming.</p>
<p>Until then, the server speaks its API: see the <a href="/docs">API documentation</a>
(tables, seats, bots, deal records) and the table WebSocket at <code>/ws/tables/{id}</code>.</p>
</body>
</html>
"""


def create_app(settings: Settings | None = None, passwords: Passwords | None = None) -> FastAPI:
    """The server app; ``passwords`` replaces the Argon2 parameters (tests use cheaper ones)."""
    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(config.resolved_database_url())
        await asyncio.to_thread(db.migrate)
        manager = TableManager(config, db)
        manager.load()
        limiter = LoginLimiter(config.login_max_failures, config.login_window_seconds)
        hasher = passwords if passwords is not None else await asyncio.to_thread(Passwords)
        app.state.services = Services(config, db, limiter, hasher, manager)
        manager.start()
        try:
            yield
        finally:
            await manager.stop()
            db.dispose()

    app = FastAPI(
        title="stich",
        version=__version__,
        summary="Doppelkopf and Tapp/Tarock-family tables: lobby, live play over WebSockets, fair deals, records.",
        lifespan=lifespan,
    )

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        if not errors:  # pragma: no cover - pydantic always names one
            return JSONResponse(error_message(WHOLE, "invalid request"), status_code=422)
        first = errors[0]
        field = validation_field(first, skip=("body", "query", "path"))
        if first.get("type") == "json_invalid":
            return JSONResponse(error_message(WHOLE, "the body is not valid JSON"), status_code=422)
        return JSONResponse(error_message(field, validation_text(first)), status_code=422)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> str:
        return PLACEHOLDER

    @app.get("/api/health", tags=["server"])
    def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok", "version": __version__}

    app.include_router(auth.router)
    app.include_router(lobby.router)
    app.include_router(tables.router)
    return app
