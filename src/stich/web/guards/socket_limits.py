"""Limits on the table WebSockets (issue 30, fault 3): open sockets per client, address and table; messages per client and address.

Before, the message limit was per connection, so a client that reconnected
had a fresh budget (2,350 messages answered in 0.3 s), and spectators needed
no cookie at all.  Now every socket belongs to a *client*: its session (the
cookie), or for a socket without a valid cookie its address.  So:

* open sockets: at most ``max_sockets_per_client`` per client,
  ``max_sockets_per_address`` per address (whatever the cookies) and
  ``max_sockets_per_table`` per table; counted when the socket is accepted,
  released when it closes;
* messages: a budget of ``max_messages_per_minute`` per client and
  ``max_messages_per_minute_per_address`` per address, shared by all their
  sockets, with a connect counting as one message.  A budget is a token
  bucket (it refills evenly over the minute), kept by client, not by socket,
  so closing and reopening sockets does not refill it.

Everything is in the memory of this server process.  With several workers
(issue 33) the open-socket caps are also counted across workers
(:mod:`stich.web.cluster.shared_sockets`) and the message budgets are shared
(:mod:`stich.web.cluster.shared_limits`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from stich.web.identity import Identity
from stich.web.settings import Settings

MAX_TRACKED = 100_000
"""Buckets kept before full ones (clients quiet for a minute) are dropped, so that many addresses cannot fill the memory."""


class Budget:
    """A token bucket per key: ``per_minute`` tokens at most, refilled evenly over a minute."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        """Spend one token of ``key``; whether there was one (a refused message spends nothing)."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - then) * self.per_minute / 60.0)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > MAX_TRACKED:
            self._prune(now)
        return allowed

    def _prune(self, now: float) -> None:
        for key, (_tokens, then) in list(self._buckets.items()):
            if now - then >= 60.0:
                del self._buckets[key]


@dataclass(frozen=True)
class Ticket:
    """One accepted socket: the client, address and table it counts against."""

    client: str
    address: str
    table: str

    def counts(self) -> tuple[str, str, str]:
        """The counts the socket is in: its client's, its address's and its table's."""
        return (self.client, f"address:{self.address}", f"table:{self.table}")


def client_key(identity: Identity | None, address: str) -> str:
    """The client a socket belongs to: its session, or its address without one."""
    return f"session:{identity.session_id}" if identity is not None else f"anonymous:{address}"


class SocketLimits:
    """Open sockets and message budgets of every client, address and table of this server."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._open: Counter[str] = Counter()
        self._client_budget = Budget(settings.max_messages_per_minute, clock)
        self._address_budget = Budget(settings.max_messages_per_minute_per_address, clock)

    def open(self, identity: Identity | None, address: str, table: str) -> Ticket | str:
        """Count a new socket and its connect; a :class:`Ticket` to :meth:`close` later, or the reason it is refused."""
        ticket = Ticket(client_key(identity, address), address, table)
        counts = self.caps(identity, ticket)
        for key, cap, whose in counts:
            if self._open[key] >= cap:
                return f"too many connections: {whose} has {self._open[key]} open, at most {cap}"
        if not self.allow_message(identity, address):
            return "too many messages; slow down"
        for key, _cap, _whose in counts:
            self._open[key] += 1
        return ticket

    def caps(self, identity: Identity | None, ticket: Ticket) -> list[tuple[str, int, str]]:
        """The counts a socket of ``identity`` goes into, each with its cap and whose it is (for the refusal)."""
        settings = self.settings
        client, address, table = ticket.counts()
        return [
            (client, settings.max_sockets_per_client, "this session" if identity is not None else "this address without a session"),
            (address, settings.max_sockets_per_address, "this address"),
            (table, settings.max_sockets_per_table, "this table"),
        ]

    def close(self, ticket: Ticket) -> None:
        """A socket counted by :meth:`open` has closed."""
        for key in ticket.counts():
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]

    def allow_message(self, identity: Identity | None, address: str) -> bool:
        """Spend one message of the client's and the address's budget; whether both had one left."""
        return self._client_budget.take(client_key(identity, address)) and self._address_budget.take(address)
