"""Names of the Redis keys and channels the workers share (all under ``stich:``)."""

from __future__ import annotations

PREFIX = "stich:"


def lease(table_id: str) -> str:
    """The lease of a table: the owning worker's id, expiring unless renewed."""
    return f"{PREFIX}lease:{table_id}"


def commands(worker: str) -> str:
    """A worker's command stream: messages of relayed clients and REST calls for the tables it runs (each entry names its table)."""
    return f"{PREFIX}commands:{worker}"


def inbox(worker: str) -> str:
    """The pub/sub channel of one worker: messages for its clients, each addressed to the clients it is for."""
    return f"{PREFIX}inbox:{worker}"


def alive(worker: str) -> str:
    """The worker's heartbeat, expiring with its leases (an owner drops the remote clients of a worker without one).

    Its value is the worker's advertised socket address (``worker_url``), or
    ``"1"`` for none: :mod:`~stich.web.cluster.direct`.
    """
    return f"{PREFIX}worker:{worker}"


def reply(token: str) -> str:
    """The list an owner pushes its answer to a forwarded REST call on."""
    return f"{PREFIX}reply:{token}"


SESSIONS = f"{PREFIX}sessions"
"""Pub/sub channel of session ids that ended or got a new token on some worker (every worker's sockets then ask the database again)."""

ONLINE = f"{PREFIX}online"
"""Sorted set of the people online (person key -> when last seen, ms): :mod:`stich.web.cluster.online`."""

ONLINE_NAMES = f"{PREFIX}online:names"
"""Hash of person key -> name, for the people on :data:`ONLINE`."""

LOBBY = f"{PREFIX}lobby"
"""Hash of table id -> the owner's summary of it, so that every worker's lobby lists every table."""


def login_name(name_key: str, address: str, kind: str = "login") -> str:
    """Sorted set of login attempt times for one account name from one address (``kind``: ``login``, or ``accounts`` for new accounts)."""
    return f"{PREFIX}{kind}:name:{address}:{name_key}"


def login_address(address: str, kind: str = "login") -> str:
    """Sorted set of login attempt times from one address, over all names (``kind`` as in :func:`login_name`)."""
    return f"{PREFIX}{kind}:address:{address}"


def budget(key: str) -> str:
    """Token bucket of a message budget (a client or an address)."""
    return f"{PREFIX}budget:{key}"


def quota(kind: str, who: str) -> str:
    """Set of the unfinished tables counting against one person or address.

    ``kind``: ``tables`` or ``search``; ``who``: ``person:{kind}:{id}`` or ``address:{address}``.
    """
    return f"{PREFIX}quota:{kind}:{who}"


def quota_owners(table_id: str) -> str:
    """Hash of whom a table counts against (``tables``: its creator; ``search``: who seated its search bots) (read on takeover)."""
    return f"{PREFIX}quota:owners:{table_id}"


def sockets(key: str) -> str:
    """Hash of worker id -> open table sockets of one client, address or table (``key``: :meth:`.Ticket.counts`)."""
    return f"{PREFIX}sockets:{key}"


def action(kind: str, who: str) -> str:
    """Sorted set of the times of one action kind's requests by one client or address (``who``: ``client:...`` or ``address:...``)."""
    return f"{PREFIX}action:{kind}:{who}"
