"""What every request handler reaches: settings, database, login and sign-up limiters, password hasher and the live tables.

One :class:`Services` object is built per app by :func:`stich.web.app.create_app`
and kept in ``app.state.services``; handlers get it with :func:`services`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from starlette.requests import HTTPConnection

if TYPE_CHECKING:
    from stich.web.auth import Passwords
    from stich.web.db import Database
    from stich.web.login_limit import LoginLimits
    from stich.web.settings import Settings
    from stich.web.tables import TableManager


@dataclass
class Services:
    """The app's shared objects."""

    settings: Settings
    db: Database
    limiter: LoginLimits
    passwords: Passwords
    tables: TableManager
    signups: LoginLimits
    """New accounts per client address (:func:`stich.web.auth.register`): the login limiter's windows over an hour."""


def services(connection: HTTPConnection) -> Services:
    """The services of the app serving this request or WebSocket."""
    return cast(Services, connection.app.state.services)
