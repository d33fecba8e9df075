"""The web server's FastAPI app: lobby REST API, table WebSockets, accounts, and the browser client.

:func:`create_app` builds an app from :class:`~stich.web.settings.Settings`.
At start (the app's lifespan) it applies the database migrations, loads the
open and running tables and resumes the running ones by replaying their
stored actions; at shutdown it stops the tables' background tasks.
``stich serve`` runs it with uvicorn; tests drive it with FastAPI's
``TestClient``.  ``docs/web.md`` describes the API and the protocol.

This is the one composition root (decision 0042): the only place that builds the
database, the login and action limiters, the password hasher and the table manager (or the
cluster's, with ``redis_url``) and hands them down, to the routes through
:class:`~stich.web.api.services.Services` and to the runtime as constructor
arguments.  Nothing below it reads a global.

The browser client is a single page (``static/index.html``) with plain ES
modules, CSS and the translations under ``/static``; no build step.  ``/``
serves the page, and an invite link's path ``/tables/{id}?invite=...`` (what
the API hands out) leads to the page's table route ``/#/table/{id}?invite=...``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.staticfiles import PathLike
from starlette.types import Scope

from stich import __version__
from stich.bots.registry import preload_builtin_bots
from stich.web.api import (
    accounts,
    analysis,
    cards,
    history,
    learning,
    lobby,
    people,
    quickstart,
    ratings,
    social,
    table_end,
    table_socket,
    tournaments,
)
from stich.web.api.services import Services
from stich.web.guards.action_limits import ActionLimiter, ActionLimits
from stich.web.guards.cross_site import CrossSiteGuard
from stich.web.guards.login_limit import LoginLimiter, LoginLimits
from stich.web.guards.passwords import Passwords
from stich.web.guards.request_limits import RequestLimits
from stich.web.protocol import WHOLE, ApiError, error_message, validation_field, validation_text
from stich.web.runtime.analyses import DealAnalyses
from stich.web.runtime.manager import TableManager
from stich.web.runtime.online import OnlineBoard, OnlineBoardLike
from stich.web.settings import Settings
from stich.web.storage.db import Database

log = logging.getLogger("stich.web.requests")

STATIC_DIR = Path(__file__).parent / "static"
"""The browser client: ``index.html``, ``js/*.js`` (ES modules), ``css/``, ``i18n/{en,de}.json``."""

HTTP_MESSAGES = {
    400: "the request could not be read",
    404: "no such page or API path",
    405: "this method is not allowed here",
}
"""Messages of the refusals that Starlette makes before a handler runs."""

NO_CACHE = {"Cache-Control": "no-cache"}
"""The page and its modules are revalidated on every load, so a new server version is picked up at once."""


class ClientFiles(StaticFiles):
    """The client's static files, revalidated by the browser on every load (ETag / Last-Modified make that cheap)."""

    def file_response(self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200) -> Response:
        """The file, marked to be revalidated before reuse."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(NO_CACHE)
        return response


def _log_refusal(request: Request, status: int, field: str, message: str) -> None:
    """One line per refused request, with its reason (issue 42: nothing is refused without a trace); 5xx and 429 as warnings."""
    client = request.client
    level = logging.WARNING if status >= 500 or status == 429 else logging.INFO
    peer = f"{client.host}:{client.port}" if client else "unknown"
    log.log(level, "refused %s %s from %s: %d %s: %s", request.method, request.url.path, peer, status, field, message)


Limits = tuple[LoginLimits, LoginLimits, ActionLimits]
"""The login, sign-up and action limiters."""


async def _tables_and_limits(config: Settings, db: Database) -> tuple[TableManager, Limits, OnlineBoardLike]:
    """The table manager, login, sign-up and action limiters and online board of one process or one worker of several (``redis_url``)."""
    accounts, window = config.accounts_per_address, config.accounts_window_seconds
    if not config.redis_url:
        limiter = LoginLimiter(config.login_max_failures, config.login_window_seconds, config.login_max_failures_per_address)
        limits: Limits = (limiter, LoginLimiter(accounts, window, accounts), ActionLimiter(config))
        return TableManager(config, db), limits, OnlineBoard(config.online_seconds)
    from stich.web.cluster.manager import ClusterTableManager, connect_redis
    from stich.web.cluster.online import SharedOnlineBoard
    from stich.web.cluster.shared_limits import RedisActionLimiter, RedisLoginLimiter

    redis = await connect_redis(config.redis_url)
    shared = RedisLoginLimiter(redis, config.login_max_failures, config.login_window_seconds, config.login_max_failures_per_address)
    signups = RedisLoginLimiter(redis, accounts, window, accounts, kind="accounts")
    limits = (shared, signups, RedisActionLimiter(redis, config))
    return ClusterTableManager(config, db, redis), limits, SharedOnlineBoard(redis, config.online_seconds)


def create_app(settings: Settings | None = None, passwords: Passwords | None = None) -> FastAPI:
    """The server app; ``passwords`` replaces the Argon2 parameters (tests use cheaper ones)."""
    config = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(config.resolved_database_url())
        await asyncio.to_thread(db.migrate)
        await asyncio.to_thread(preload_builtin_bots)  # before any lease or socket: the first search table costs no pause
        manager, (limiter, signups, actions), online = await _tables_and_limits(config, db)
        manager.load()
        hasher = passwords if passwords is not None else await asyncio.to_thread(Passwords)
        hasher.open_pool(config.password_hash_workers, config.password_hash_queue)
        run = getattr(manager.bots, "run", None)  # the bot pool's worker processes; a thread where the thinker has none
        analyses = DealAnalyses(db, run, forget=manager.bots.forget, max_running=config.max_analyses, budget=config.analysis_budget)
        app.state.services = Services(config, db, limiter, hasher, manager, signups, actions, online, analyses)
        manager.start()
        try:
            yield
        finally:
            await analyses.close()
            await manager.stop()
            hasher.close_pool()
            db.dispose()

    app = FastAPI(
        title="stich",
        version=__version__,
        summary="Doppelkopf and Tapp/Tarock-family tables: lobby, live play over WebSockets, fair deals, records.",
        lifespan=lifespan,
    )

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        _log_refusal(request, exc.status, exc.field, exc.message)
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's own refusals (no such route: 404, wrong method: 405, an unreadable body: 400) in the API's error shape."""
        if exc.status_code < 400:  # pragma: no cover - raised only for errors
            return Response(status_code=exc.status_code, headers=exc.headers)
        message = HTTP_MESSAGES.get(exc.status_code, str(exc.detail))
        _log_refusal(request, exc.status_code, WHOLE, message)
        return JSONResponse(error_message(WHOLE, message), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        if not errors:  # pragma: no cover - pydantic always names one
            return JSONResponse(error_message(WHOLE, "invalid request"), status_code=422)
        first = errors[0]
        field = validation_field(first, skip=("body", "query", "path"))
        if first.get("type") == "json_invalid":
            field, text = WHOLE, "the body is not valid JSON"
        else:
            text = validation_text(first)
        _log_refusal(request, 422, field, text)
        return JSONResponse(error_message(field, text), status_code=422)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        """The browser client (a single page; its routes live in the URL's hash)."""
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=NO_CACHE)

    @app.get("/tables/{table_id}", include_in_schema=False)
    def invite_link(table_id: str, invite: Annotated[str | None, Query(max_length=100)] = None) -> RedirectResponse:
        """An invite link as the API hands it out (``/tables/{id}?invite=...``) opens the table in the client."""
        target = f"/#/table/{quote(table_id, safe='')}"
        if invite:
            target += f"?invite={quote(invite, safe='')}"
        return RedirectResponse(target, status_code=307)

    @app.get("/api/health", tags=["server"])
    def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok", "version": __version__}

    app.include_router(accounts.router)
    app.include_router(accounts.account_router)
    app.include_router(lobby.router)
    app.include_router(table_end.router)
    app.include_router(social.router)
    app.include_router(people.router)
    app.include_router(quickstart.router)
    app.include_router(table_socket.router)
    app.include_router(history.router)
    app.include_router(ratings.router)
    app.include_router(cards.router)
    app.include_router(analysis.router)
    app.include_router(tournaments.router)
    app.include_router(learning.router)
    app.mount("/static", ClientFiles(directory=STATIC_DIR), name="static")
    # Outermost first: a cross-site request is refused before its body is even read.
    app.add_middleware(RequestLimits, max_body_bytes=config.max_body_bytes, timeout=config.request_timeout_seconds)
    app.add_middleware(CrossSiteGuard, allowed_origins=config.allowed_origins)
    return app
