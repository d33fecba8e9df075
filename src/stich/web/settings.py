"""Settings of the web server: where the database lives and how the tables behave.

Every setting has a default suitable for a server on one's own machine;
``stich serve`` fills in what its options name, and tests build their own
:class:`Settings` (a short grace period, no bot delay, a temporary database).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from stich.web.client_address import proxy_networks

APP_NAME = "stich"


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
    max_message_bytes: int = 4096
    """Largest WebSocket message a client may send; larger ones are answered with an error."""
    login_max_failures: int = 5
    """Login attempts allowed per account name and address within :attr:`login_window_seconds` (a successful one is taken back)."""
    login_window_seconds: float = 60.0
    """The window of the login rate limits."""
    login_max_failures_per_address: int = 20
    """Login attempts allowed per address across all names within :attr:`login_window_seconds` (name spraying)."""
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
    max_messages_per_minute: int = 240
    """Messages one WebSocket client may send per minute before it is disconnected."""

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
        if self.password_hash_workers < 1 or self.password_hash_queue < 0:
            raise ValueError("password_hash_workers must be at least 1 and password_hash_queue not negative")
        if self.max_body_bytes < 1024 or self.request_timeout_seconds <= 0:
            raise ValueError("max_body_bytes must be at least 1024 and request_timeout_seconds positive")
        proxy_networks(self.trusted_proxies)  # a malformed address fails here, at start
