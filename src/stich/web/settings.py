"""Settings of the web server: where the database lives and how the tables behave.

Every setting has a default suitable for a server on one's own machine;
``stich serve`` fills in what its options name, and tests build their own
:class:`Settings` (a short grace period, no bot delay, a temporary database).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from platformdirs import user_data_dir

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def proxy_networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    """The networks of ``trusted_proxies`` (``"10.0.0.5"``, ``"10.0.0.0/8"``, ``"::1"``); raises ``ValueError`` for a malformed entry."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in trusted)


APP_NAME = "stich"
HOST_PLACEHOLDER = "{host}"
"""Stands in ``worker_url`` and ``allowed_origins`` for the hostname the client addressed (its ``Host`` header)."""


def worker_url_problem(url: str) -> str | None:
    """What is wrong with a worker's advertised address (``worker_url``), or ``None`` for a good one.

    An ``http``/``https`` URL with a host, an optional port and path prefix,
    and nothing else (no user, query or fragment); ``{host}`` may stand for
    the host only.
    """
    filled = url.replace(HOST_PLACEHOLDER, "example.org", 1)
    if "{" in filled or "}" in filled:
        return f"only {HOST_PLACEHOLDER} may stand in it, once: {url[:100]!r}"
    parts = urlsplit(filled)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"not an http(s)://host[:port] address: {url[:100]!r}"
    if HOST_PLACEHOLDER in url and parts.netloc != "example.org" and not parts.netloc.startswith("example.org:"):
        return f"{HOST_PLACEHOLDER} may stand only for the host: {url[:100]!r}"
    try:
        parts.port  # noqa: B018 - raises for a port that is not a number or out of range
    except ValueError:
        return f"a bad port: {url[:100]!r}"
    if parts.username or parts.password or parts.query or parts.fragment or "?" in filled or "#" in filled:
        return f"no user, query or fragment allowed: {url[:100]!r}"
    if any(ch.isspace() or ch in "\\\"'<>" for ch in filled):
        return f"no spaces, quotes or backslashes allowed: {url[:100]!r}"
    return None


def default_database_url() -> str:
    """A SQLite file ``stich.db`` in the user's data directory (created if missing)."""
    folder = Path(user_data_dir(APP_NAME, appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'stich.db'}"


@dataclass(frozen=True)
class Settings:
    """How the server behaves; immutable once the app is built."""

    database_url: str = ""
    """SQLAlchemy URL; empty means :func:`default_database_url`."""
    grace_seconds: float = 60.0
    """How long a disconnected player keeps their turn before a bot plays for them (until they return)."""
    bot_delay_seconds: float = 0.6
    """Pause after each automatic move, so that people can follow the bots' cards."""
    next_deal_delay_seconds: float = 4.0
    """Pause between the end of a deal and the next one."""
    stand_in_bot: str = "heuristic"
    """The bot that plays for a player who is away past the grace period."""
    hint_bot: str = "pimc:worlds=40,time=3"
    """The bot a learning table's hints ask (:mod:`stich.web.runtime.hints`): fixed worlds, capped at ``time`` seconds."""
    hint_interval_seconds: float = 5.0
    """Least time between two hints one seat computes (asking again for the same moment costs nothing)."""
    hint_timeout_seconds: float = 20.0
    """Longest a hint may take, waiting for a worker process included, before it is refused (503 ``hint``)."""
    max_message_bytes: int = 4096
    """Largest WebSocket message a client may send; larger ones are answered with an error."""
    login_max_failures: int = 5
    """Login attempts allowed per account name and address within :attr:`login_window_seconds` (a successful one is taken back)."""
    login_window_seconds: float = 60.0
    """The window of the login rate limits."""
    login_max_failures_per_address: int = 20
    """Login attempts allowed per address across all names within :attr:`login_window_seconds` (name spraying)."""
    accounts_per_address: int = 3
    """New accounts one client address may register within :attr:`accounts_window_seconds` (an account lifts the guest's bot level cap)."""
    accounts_window_seconds: float = 3600.0
    """The window of :attr:`accounts_per_address`."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of the server's own reverse proxies; only from them is ``X-Forwarded-For`` believed."""
    password_hash_workers: int = 2
    """Password hashes computed at once, on threads of their own (Argon2id takes about 50 ms and 64 MiB each)."""
    password_hash_queue: int = 64
    """Password checks waiting beyond those; more are answered 503 with ``Retry-After``."""
    max_body_bytes: int = 64 * 1024
    """Largest request body; a larger one is answered 413 before it is read."""
    request_timeout_seconds: float = 10.0
    """Time a client has to send a request's headers, and again its body; a slower one is disconnected."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own (``https://example.org``) whose pages may send state-changing requests."""
    session_days: int = 30
    """Lifetime of a session cookie."""
    max_deals: int = 200
    """Most deals one table may ask for."""
    send_queue_size: int = 512
    """Messages queued for one client before it counts as stuck and is disconnected."""
    chat_max_chars: int = 200
    """Longest chat text, in characters after cleaning (:mod:`stich.web.runtime.chat`)."""
    chat_burst: int = 5
    """Chat messages one person may send at a table in a row before the rate limit holds them back."""
    chat_per_minute: float = 12.0
    """How fast a person's chat allowance refills at each table (messages per minute)."""
    chat_burst_per_address: int = 10
    """Chat messages the people of one client address may send at a table in a row (all their sessions together)."""
    chat_per_minute_per_address: float = 30.0
    """How fast that allowance refills (messages per minute)."""
    chat_history: int = 50
    """Chat messages kept per channel and table for people who connect later (memory only)."""
    max_messages_per_minute: int = 240
    """Messages one session (a cookie; without one, the address) may send per minute over all its WebSockets.

    A connect counts as one message; past the limit the socket is told so and
    closed, and a reconnect does not restore the budget.
    """
    max_messages_per_minute_per_address: int = 1200
    """Messages one client address may send per minute over all its WebSockets and sessions."""
    max_sockets_per_client: int = 8
    """WebSockets one session may hold open at once (spectators without a cookie: see the next)."""
    max_sockets_per_address: int = 64
    """WebSockets one client address may hold open at once, with or without cookies."""
    max_sockets_per_table: int = 300
    """WebSockets (players and spectators) one table accepts at once."""
    presence_interval_seconds: float = 0.25
    """Connects and disconnects of a table's players are told to its clients at most once per this interval."""
    presence_grace_seconds: float = 5.0
    """A player whose socket closed is shown as not connected only after this long (a page reload does not flash it)."""
    public_turn_seconds: int | None = 120
    """The turn limit of a public table created without one (``None``: none); a private table has one only when it asks."""
    min_limit_seconds: int = 5
    """Shortest turn limit, and shortest wait for "Weiter", a table may ask for (``turn_seconds``, ``continue_seconds``)."""
    bot_workers: int = 2
    """Worker processes in which search bots think (see :mod:`stich.web.runtime.bot_pool`)."""
    bot_nice: int = 10
    """How much lower the bot workers' CPU priority is than the server's (``nice`` increment; 0 for the same)."""
    analysis_budget: int = 24
    """Sampled worlds per decision of a finished deal's analysis (``stich analyse --budget``; :mod:`stich.web.runtime.analyses`)."""
    max_analyses: int = 4
    """Analyses of finished deals computed at once by one server process (more are refused with 429 ``analysis``)."""
    guest_max_bot_level: int = 2
    """Highest search-bot ``level`` a guest may seat."""
    account_max_bot_level: int = 5
    """Highest search-bot ``level`` an account may seat."""
    max_search_tables_per_person: int = 2
    """Unfinished tables with search bots one person (an account, or a guest session) may have seated."""
    max_search_tables_per_address: int = 4
    """Unfinished tables with search bots seated from one client address."""
    max_tables_per_person: int = 5
    """Unfinished tables one person (an account, or a guest session) may have created."""
    max_tables_per_address: int = 20
    """Unfinished tables created from one client address."""
    redis_url: str = ""
    """Redis of a server with several workers (``redis://host:6379/0``); empty: one process, nothing shared (:mod:`stich.web.cluster`)."""
    lease_seconds: float = 5.0
    """With Redis: how long a worker's lease on a table lasts unless renewed (every third of it); a dead worker's tables move after it."""
    worker_url: str = ""
    """With Redis: this worker's own address for table sockets, advertised to the other workers (decision 0068).

    ``http(s)://host:port`` with an optional path prefix, or with ``{host}``
    for the hostname the client used (``http://{host}:8001``: ``stich serve
    --worker-ports``).  A client that follows (``?follow=1``) and reaches
    another worker for a table this one runs is sent here instead of being
    relayed.  Empty: such sockets are relayed.
    """
    session_recheck_seconds: float = 60.0
    """How long a table socket trusts its last session check in the database, no change heard (:mod:`stich.web.runtime.session_watch`)."""
    online_seconds: float = 90.0
    """How long after a page of a person was last seen they count as online (pages ping every 30 s; :mod:`stich.web.runtime.online`)."""
    max_friends: int = 200
    """Most accounts one account may list as friends."""
    action_window_seconds: float = 60.0
    """The sliding window of the lobby's write-request limits (:mod:`stich.web.guards.action_limits`)."""
    action_limit: int = 20
    """Requests of one action kind (friends, invites, quickstart, rematch, tournaments, again, analysis) per session within the window."""
    action_limit_per_address: int = 60
    """Requests of one action kind per client address, over all its sessions, within :attr:`action_window_seconds`."""
    online_ping_limit: int = 10
    """Online pings (``POST /api/online``) per session within :attr:`action_window_seconds` (a page pings every 30 s)."""
    online_ping_limit_per_address: int = 300
    """Online pings per client address within :attr:`action_window_seconds` (many people may share one address)."""

    def resolved_database_url(self) -> str:
        """The database URL to use (the default file when none is set)."""
        return self.database_url or default_database_url()

    def __post_init__(self) -> None:
        if self.grace_seconds < 0:
            raise ValueError("grace_seconds must not be negative")
        if self.bot_delay_seconds < 0 or self.next_deal_delay_seconds < 0:
            raise ValueError("delays must not be negative")
        if self.max_message_bytes < 64:
            raise ValueError("max_message_bytes must be at least 64")
        if self.login_max_failures < 1 or self.login_max_failures_per_address < 1 or self.login_window_seconds <= 0:
            raise ValueError("the login rate limit needs at least one attempt and a positive window")
        if self.online_seconds <= 0 or self.max_friends < 1:
            raise ValueError("online_seconds must be positive and max_friends at least 1")
        if (
            self.action_window_seconds <= 0
            or min(self.action_limit, self.action_limit_per_address, self.online_ping_limit, self.online_ping_limit_per_address) < 1
        ):
            raise ValueError("action_window_seconds must be positive and the action and online ping limits at least 1")
        if self.accounts_per_address < 1 or self.accounts_window_seconds <= 0:
            raise ValueError("accounts_per_address must be at least 1 and accounts_window_seconds positive")
        if self.password_hash_workers < 1 or self.password_hash_queue < 0:
            raise ValueError("password_hash_workers must be at least 1 and password_hash_queue not negative")
        if self.max_body_bytes < 1024 or self.request_timeout_seconds <= 0:
            raise ValueError("max_body_bytes must be at least 1024 and request_timeout_seconds positive")
        proxy_networks(self.trusted_proxies)  # a malformed address fails here, at start
        if self.bot_workers < 1:
            raise ValueError("bot_workers must be at least 1")
        if not 1 <= self.analysis_budget <= 400 or self.max_analyses < 1:
            raise ValueError("analysis_budget must be 1 to 400 and max_analyses at least 1")
        if self.chat_burst_per_address < 1 or self.chat_per_minute_per_address <= 0:
            raise ValueError("chat_burst_per_address must be at least 1 and chat_per_minute_per_address positive")
        if self.chat_max_chars < 1 or self.chat_burst < 1 or self.chat_per_minute <= 0 or self.chat_history < 0:
            raise ValueError("chat_max_chars and chat_burst must be at least 1, chat_per_minute positive, chat_history not negative")
        if self.presence_interval_seconds < 0 or self.presence_grace_seconds < 0:
            raise ValueError("presence_interval_seconds and presence_grace_seconds must not be negative")
        if self.min_limit_seconds < 1:
            raise ValueError("min_limit_seconds must be at least 1")
        if self.public_turn_seconds is not None and self.public_turn_seconds < self.min_limit_seconds:
            raise ValueError("public_turn_seconds must be at least min_limit_seconds (or None)")
        if self.lease_seconds < 0.3:
            raise ValueError("lease_seconds must be at least 0.3")
        problem = worker_url_problem(self.worker_url) if self.worker_url else None
        if problem is not None:
            raise ValueError(f"worker_url: {problem}")
        if self.session_recheck_seconds <= 0:
            raise ValueError("session_recheck_seconds must be positive")
        counts = {
            name: getattr(self, name)
            for name in (
                "max_messages_per_minute",
                "max_messages_per_minute_per_address",
                "max_sockets_per_client",
                "max_sockets_per_address",
                "max_sockets_per_table",
                "max_search_tables_per_person",
                "max_search_tables_per_address",
                "max_tables_per_person",
                "max_tables_per_address",
            )
        }
        for name, value in counts.items():
            if value < 0:
                raise ValueError(f"{name} must not be negative")
        if not 0 <= self.guest_max_bot_level <= 5 or not 0 <= self.account_max_bot_level <= 5:
            raise ValueError("the highest bot levels must be 0 (no search bots) to 5")
