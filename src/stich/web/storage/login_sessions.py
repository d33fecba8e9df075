"""Login sessions: the token a session cookie carries, its hash in the database, and the identity it names.

The database keeps only a token's SHA-256 (:func:`hash_token`), so a copy of the database opens no
session.  :func:`cookie_identity` is the one lookup of "who is this cookie": the API asks it for every
request (:func:`stich.web.api.session.current_identity`), a table socket when it checks that its
session still holds (:meth:`stich.web.runtime.connection.Connection.session_holds`).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping

from stich.web.identity import Identity
from stich.web.storage.db import Database

COOKIE_NAME = "stich_session"
"""The cookie that carries the session token."""
MAX_TOKEN = 200
"""Longest cookie value looked up (a real token has 43 characters)."""


def hash_token(token: str) -> str:
    """SHA-256 of a session token, as stored."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


async def cookie_identity(db: Database, cookies: Mapping[str, str]) -> Identity | None:
    """The identity of a valid session cookie among ``cookies``, or ``None``."""
    token = cookies.get(COOKIE_NAME)
    if not token or len(token) > MAX_TOKEN:
        return None
    row = await asyncio.to_thread(db.find_session, hash_token(token))
    if row is None:
        return None
    return Identity(row.id, row.user_id, row.display_name)
