"""What every request handler is handed: settings, database, the login, sign-up and action limiters, passwords, tables, who is online.

The composition root, :func:`stich.web.app.create_app`, builds one :class:`Services`
per app at start and keeps it in ``app.state.services``; a handler gets it with
:func:`services` (the request's own app, never a module global).  Nothing below
the API reads it: the runtime, the guards and storage get what they need as
arguments when the root builds them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import cast

from starlette.requests import HTTPConnection

from stich.web.guards.action_limits import ActionLimits
from stich.web.guards.client_address import client_address
from stich.web.guards.login_limit import LoginLimits
from stich.web.guards.passwords import Passwords
from stich.web.guards.socket_limits import client_key
from stich.web.identity import Identity
from stich.web.protocol import ApiError
from stich.web.runtime.analyses import DealAnalyses
from stich.web.runtime.manager import TableManager
from stich.web.runtime.online import OnlineBoard, OnlineBoardLike
from stich.web.settings import Settings
from stich.web.storage.db import Database

log = logging.getLogger("stich.web.requests")


@dataclass
class Services:
    """The app's shared objects."""

    settings: Settings
    db: Database
    limiter: LoginLimits
    passwords: Passwords
    tables: TableManager
    signups: LoginLimits
    """New accounts per client address (:func:`stich.web.api.accounts.register`): the login limiter's windows over an hour."""
    actions: ActionLimits
    """The lobby's write requests per session and per address (:mod:`stich.web.guards.action_limits`; :func:`count_action`)."""
    online: OnlineBoardLike = field(default_factory=OnlineBoard)
    """Who is online (:mod:`stich.web.runtime.online`; several workers: the Redis board of :mod:`stich.web.cluster.online`)."""
    analyses: DealAnalyses | None = None
    """The analyses of finished deals (:mod:`stich.web.api.analysis`)."""


def services(connection: HTTPConnection) -> Services:
    """The services of the app serving this request or WebSocket."""
    return cast(Services, connection.app.state.services)


def request_address(connection: HTTPConnection) -> str:
    """The client's address under the server's proxy rule (:func:`stich.web.guards.client_address.client_address`, ``trusted_proxies``)."""
    return client_address(connection, services(connection).settings.trusted_proxies)


async def count_action(connection: HTTPConnection, action: str, identity: Identity | None) -> None:
    """Count one ``action`` (:data:`stich.web.guards.action_limits.ACTIONS`) of this client, or refuse it: 429 naming the action.

    The client is ``identity``'s session (its address without one); the
    refusal carries ``Retry-After`` and is logged with its reason.
    """
    svc = services(connection)
    address = client_address(connection, svc.settings.trusted_proxies)
    wait = await svc.actions.acount(action, client_key(identity, address), address)
    if wait is not None:
        log.info("%s from %s refused: too many requests (retry in %d s)", action, address, wait)
        raise ApiError(429, action, f"too many requests; try again in {wait} s", {"Retry-After": str(wait)})
