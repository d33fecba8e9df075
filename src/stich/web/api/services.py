"""What every request handler is handed: settings, database, login and sign-up limiters, password hasher, the live tables, who is online.

The composition root, :func:`stich.web.app.create_app`, builds one :class:`Services`
per app at start and keeps it in ``app.state.services``; a handler gets it with
:func:`services` (the request's own app, never a module global).  Nothing below
the API reads it: the runtime, the guards and storage get what they need as
arguments when the root builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from starlette.requests import HTTPConnection

from stich.web.guards.client_address import client_address
from stich.web.guards.login_limit import LoginLimits
from stich.web.guards.passwords import Passwords
from stich.web.runtime.analyses import DealAnalyses
from stich.web.runtime.manager import TableManager
from stich.web.runtime.online import OnlineBoard, OnlineBoardLike
from stich.web.settings import Settings
from stich.web.storage.db import Database


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
