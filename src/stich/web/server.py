"""Running the app under uvicorn, with the limits a server on the open network needs.

:func:`make_server` builds the :class:`uvicorn.Server` that ``stich serve``
runs (and tests start on loopback):

* **A deadline for the request headers.**  uvicorn waits for a request's
  headers without end: a client that sends half a request line held its
  connection for over 65 s, and enough such clients exhaust the server.  The
  HTTP protocol here (:func:`deadline_protocol`) closes a connection whose
  request headers are not complete within ``request_timeout_seconds`` of
  its opening (or of the previous response, for a kept-alive connection).
  The body has its own deadline (:mod:`stich.web.guards.request_limits`).
* **One idle limit for kept-alive connections.**  uvicorn closes a
  kept-alive connection idle for ``timeout_keep_alive`` (its default 5 s)
  without a word; a client that reuses the connection just then (its own
  idle limit as long, and the reply made late by a busy event loop) gets a
  read error for a request the server never saw, and nothing is logged.
  That is how 50 and 192 table creations failed at 300 and 400 tables on two
  workers (issue 42): ``bench/load_platform.py`` kept connections for 5 s.
  Here uvicorn's keep-alive is the header deadline, ``request_timeout_seconds``
  (10 s), so a client keeping connections up to half that is safe, and every
  connection the server closes is logged: an idle one at debug level, one
  whose request headers were late (answered 408) as a warning.
* **Forwarded addresses are the app's business.**  uvicorn's own proxy-header
  handling believes ``X-Forwarded-For`` from loopback by default, which let
  login guesses go on from "another address" while the first was locked.
  It is switched off; the app reads the header only from the configured
  ``trusted_proxies`` (:mod:`stich.web.guards.client_address`).
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from stich.web.settings import Settings

log = logging.getLogger("stich.web.server")

MAX_WS_BYTES = 64 * 1024
"""WebSocket frames larger than this are refused by uvicorn before the app reads them (the app's own limit is smaller)."""

TIMEOUT_RESPONSE = b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
"""What a client that began a request but did not finish its headers in time reads before the connection closes."""


def deadline_protocol(seconds: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol, closing connections whose request headers take longer than ``seconds``."""

    class DeadlineH11Protocol(H11Protocol):
        """:class:`H11Protocol` with a deadline for each request's headers."""

        _deadline: asyncio.TimerHandle | None = None
        _partial = False
        """Whether part of a request arrived since the deadline was set (an idle connection is closed without a word)."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            self._partial = True
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # the headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()  # the next request on this connection gets its own deadline

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._partial = False
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                if self._partial:  # a browser's idle spare connection gets no unasked-for answer
                    log.warning(
                        "closed a connection from %s: its request headers were not complete within %g s (408)", self._peer(), seconds
                    )
                    self.transport.write(TIMEOUT_RESPONSE)
                else:
                    log.debug("closed a connection from %s: idle for %g s", self._peer(), seconds)
                self.transport.close()

        def timeout_keep_alive_handler(self) -> None:
            """uvicorn's close of an idle kept-alive connection, logged."""
            if not self.transport.is_closing():
                log.debug("closed a kept-alive connection from %s: idle for %d s", self._peer(), self.timeout_keep_alive)
            super().timeout_keep_alive_handler()

        def _peer(self) -> str:
            peer = self.transport.get_extra_info("peername") if self.transport is not None else None
            return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else "unknown"

    return DeadlineH11Protocol


def keep_alive_seconds(settings: Settings) -> int:
    """How long an idle kept-alive connection stays open: the header deadline (uvicorn takes whole seconds)."""
    return max(1, math.ceil(settings.request_timeout_seconds))


def make_server(app: Any, settings: Settings, host: str, port: int, **config: Any) -> uvicorn.Server:
    """The uvicorn server for ``app`` on ``host:port``, with the header deadline and without uvicorn's proxy headers."""
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "http": deadline_protocol(settings.request_timeout_seconds),
        "timeout_keep_alive": keep_alive_seconds(settings),
        "ws_max_size": MAX_WS_BYTES,
        "proxy_headers": False,
        "log_level": "info",
    }
    options.update(config)
    return uvicorn.Server(uvicorn.Config(app, **options))
