"""Who is asking: the client's network address, trusting ``X-Forwarded-For`` only from configured proxies.

A limit per address (failed logins, and whatever else is counted per
client) is only as good as the address.  The peer of the TCP connection is
the client unless that peer is one of the server's own reverse proxies
(setting ``trusted_proxies``: addresses or networks, empty by default).  Only
then is ``X-Forwarded-For`` read, from the right: each proxy appends the
address it was reached from, so the rightmost entry that is not a trusted
proxy is the client.  Entries further left were written by the client
itself and are never believed.  With no trusted proxies the header is
ignored whatever it says, also from loopback.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.requests import HTTPConnection

from stich.web.settings import Network, proxy_networks

UNKNOWN = "unknown"
"""The address of a connection without a peer (not seen over TCP)."""


def _is_trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(connection: HTTPConnection, trusted_proxies: tuple[str, ...] = ()) -> str:
    """The client's address: the TCP peer, or, when the peer is a trusted proxy, the nearest untrusted ``X-Forwarded-For`` entry."""
    peer = connection.client.host if connection.client else UNKNOWN
    networks = proxy_networks(trusted_proxies)
    if not networks or not _is_trusted(peer, networks):
        return peer
    hops = [hop.strip() for header in connection.headers.getlist("x-forwarded-for") for hop in header.split(",")]
    for hop in reversed(hops):
        if not hop:
            continue
        if not _is_trusted(hop, networks):
            return hop
        peer = hop
    return peer
