"""Sockets sent to their table's owner instead of relayed (issue 42, the cluster's cost; decision 0068).

A relayed socket's traffic is handled by two Python processes and crosses
Redis twice (decision 0064: the largest part of what a cluster action costs
beyond one process's).  So each worker may advertise its own address for
table sockets (the setting ``worker_url``, kept as the value of its
heartbeat key in Redis), and a worker that receives a socket for a table
another worker runs tells the client where that owner is instead of relaying
it: ``{"type": "moved", "url": "ws://host:8001"}``, then the close code
:data:`MOVED_CODE`.  The client opens ``{url}/ws/tables/{id}`` there.

Only a client that says it follows (the query parameter ``follow=1``) is
sent: an older client (a browser tab opened before an upgrade) is relayed as
before, never sent round in circles.  Without an advertised address, or an
owner unknown or changing, the socket is relayed, so "served or closed"
(decision 0045) holds as it did.  The address comes only from the workers'
own settings, read back from Redis; the one thing a client contributes is
the hostname it addressed (its ``Host`` header) where the address says
``{host}``, checked to be a plain hostname, so a client can only be sent to
the host it named itself.
"""

from __future__ import annotations

import re

from starlette.websockets import WebSocket

from stich.web.settings import HOST_PLACEHOLDER, worker_url_problem

FOLLOW_PARAM = "follow"
"""The query parameter by which a client says it follows a ``moved`` message (``follow=1``)."""
MOVED_CODE = 4307
"""Close code after a ``moved`` message: open the socket again where it says (like HTTP's 307, "temporary redirect")."""
NO_ADDRESS = "1"
"""The heartbeat value of a worker that advertises no address (the value every worker wrote before decision 0068)."""

_HOSTNAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\]")
"""A DNS name, an IPv4 address, or a bracketed IPv6 address: nothing that could end the host part of a URL."""


def follows(websocket: WebSocket) -> bool:
    """Whether the client asked to be sent to the owner (``?follow=1``) rather than relayed."""
    return websocket.query_params.get(FOLLOW_PARAM) == "1"


def request_hostname(host_header: str) -> str | None:
    """The hostname of a ``Host`` header (its port dropped), or ``None`` where it is not a plain hostname."""
    host = host_header.strip()
    if host.startswith("["):
        host = host[: host.find("]") + 1] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.lower() if _HOSTNAME.fullmatch(host) else None


def socket_base(advertised: str | None, host_header: str) -> str | None:
    """The ``ws(s)://`` base of a worker's advertised address as this client reaches it; ``None``: relay instead.

    ``advertised`` is the owner's heartbeat value: its ``worker_url``, or
    :data:`NO_ADDRESS` (also what a worker before decision 0068 writes).
    """
    if not advertised or advertised == NO_ADDRESS or worker_url_problem(advertised) is not None:
        return None
    if HOST_PLACEHOLDER in advertised:
        hostname = request_hostname(host_header)
        if hostname is None:
            return None
        advertised = advertised.replace(HOST_PLACEHOLDER, hostname)
    return "ws" + advertised.removeprefix("http").rstrip("/")


def moved_message(base: str) -> dict[str, str]:
    """The message that sends a client to ``base`` (a ``ws(s)://`` base URL): nothing but the address."""
    return {"type": "moved", "url": base}
