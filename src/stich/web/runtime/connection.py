"""One client socket of a table: its outgoing queue and writer, its session check, and the screening of its messages.

Used alike by the table's owner (:class:`~stich.web.runtime.table.TableRuntime`) and by a worker
relaying a socket to another worker's table (:mod:`stich.web.cluster.manager`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from stich.web.identity import Identity
from stich.web.protocol import WHOLE, ClientMessage, PingMessage, ProtocolError, error_message, parse_client_message
from stich.web.runtime.broadcast import encode
from stich.web.runtime.session_watch import SessionWatch
from stich.web.settings import Settings
from stich.web.storage.db import Database
from stich.web.storage.login_sessions import cookie_identity

log = logging.getLogger("stich.web")
SESSION_ENDED = "your session has ended (logged out, or logged in anew); connect again"
"""The error a socket gets when its session stops holding, before it is closed with 4401."""


class Connection:
    """One WebSocket client: a seat's player or a spectator, with its own outgoing queue.

    Messages are queued and written by a separate task, so a slow client
    never holds up the table; a client whose queue overflows is disconnected.
    """

    remote = False
    """Whether the client's socket is on another worker (:class:`stich.web.cluster.remote.RemoteConnection`)."""

    def __init__(
        self,
        websocket: WebSocket,
        identity: Identity | None,
        settings: Settings,
        address: str = "unknown",
        sessions: SessionWatch | None = None,
        session_checked_at: float = -math.inf,
        db: Database | None = None,
    ) -> None:
        self.websocket = websocket
        self.db = db
        """Where the socket's session is looked up again (:meth:`session_holds`); ``None`` for a client of another worker."""
        self.identity = identity
        self.sessions = sessions
        """Recent session changes (:mod:`stich.web.runtime.session_watch`); ``None``: ask the database on every check."""
        self.session_checked_at = session_checked_at
        """When (monotonic) the database last confirmed the socket's session; taken *before* that lookup began."""
        self.address = address
        """The client's address (its message budget is shared with the address's other sockets)."""
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(settings.send_queue_size)
        """Encoded messages (:func:`stich.web.runtime.broadcast.encode`) waiting for the writer, then ``None`` to stop it."""
        self.closed = False
        self.kicked = False
        """Disconnected for misbehaving (flooding, or too slow to read its messages)."""
        self.close_code = 1008
        """The close code once kicked: 1008 (policy), or 4401 when its session has ended."""
        self.close_when_written = False
        """Whether the writer closes the socket (with :attr:`close_code`) once it has written what was queued (:meth:`session_ended`)."""

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message (dropped once the connection is closed)."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message (one text shared by a whole audience: :mod:`stich.web.runtime.broadcast`)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("client queue overflowed; disconnecting it")
            self.closed = True
            self.kicked = True
            asyncio.get_running_loop().create_task(self._close(1013))

    async def _close(self, code: int) -> None:
        if self.websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):  # already gone
                await self.websocket.close(code=code)

    async def writer(self) -> None:
        """Write queued messages until the ``None`` sentinel."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    if self.close_when_written:
                        await self._close(self.close_code)
                    return
                await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError) as exc:
            log.info("a client went away while being written to: %r", exc)
            self.closed = True

    async def session_holds(self) -> bool:
        """Whether the cookie the socket was opened with still names the session it was opened for.

        The database is asked only when :attr:`sessions` cannot vouch for the
        last answer (a change of this session recorded since, or the answer
        is older than ``session_recheck_seconds``): asking on every message
        was about a third of an action's CPU.
        """
        if self.identity is None:
            return False
        now = time.monotonic()
        if self.sessions is not None and self.sessions.holds(self.identity.session_id, self.session_checked_at, now):
            return True
        assert self.db is not None, "a local socket is given the database"
        current = await cookie_identity(self.db, self.websocket.cookies)
        if current is None or current.session_id != self.identity.session_id:
            return False
        self.session_checked_at = now
        return True

    def session_ended(self) -> None:
        """Its session ended or got a new token: tell the client, then close the socket (4401) at once, not at its next message.

        A socket that sent nothing after a logout used to go on receiving its
        seat's ``state``, the hand included, until it spoke (issue 42).
        """
        if self.closed:
            return
        self.send(error_message("session", SESSION_ENDED))
        self.close_code = 4401
        self.kicked = True
        self.close_when_written = True
        self.finish()

    def finish(self) -> None:
        """Stop the writer after what is queued."""
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def end(self, writer: asyncio.Task[None]) -> None:
        """Finish: let ``writer`` (this connection's :meth:`writer` task) write what is queued, for 5 s at most, then close the socket.

        A kicked connection closes with its :attr:`close_code`, any other with 1000.
        """
        self.finish()
        try:
            await asyncio.wait_for(writer, timeout=5)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()
        await self._close(self.close_code if self.kicked else 1000)


async def screen_message(
    conn: Connection, raw: str | bytes | None, allow: Callable[[Connection], Awaitable[bool]], max_bytes: int, *, answer_ping: bool = True
) -> ClientMessage | None:
    """The checks every client message passes first, wherever its table runs; the message if it goes on, else ``None``.

    In order: it spends one of the client's and the address's message budget
    (``allow``; past it the client is disconnected), it must parse
    (:func:`~stich.web.protocol.parse_client_message`; else an error naming the
    field), a ping is answered here (unless ``answer_ping`` is false: a
    relaying worker lets the owner answer it, so that a pong proves the whole
    path), and a player's socket must still hold the
    session it was opened with (else 4401).  ``None`` means it was answered
    here or the socket is kicked (:attr:`Connection.kicked`).  The owner of a
    table (:meth:`TableRuntime.handle`) and a worker relaying a socket to the
    owner (:mod:`stich.web.cluster.manager`) both screen with this.
    """
    if not await allow(conn):
        log.warning("a socket from %s sent too many messages; disconnected (1008)", conn.address)
        conn.send(error_message(WHOLE, "too many messages; slow down"))
        conn.kicked = True
        return None
    try:
        message = parse_client_message(raw, max_bytes)
    except ProtocolError as exc:
        conn.send(error_message(exc.field, exc.message))
        return None
    if isinstance(message, PingMessage) and answer_ping:
        conn.send({"type": "pong", "id": message.id})
        return None
    if conn.identity is not None and not await conn.session_holds():
        conn.send(error_message("session", SESSION_ENDED))
        conn.close_code = 4401
        conn.kicked = True
        return None
    return message
