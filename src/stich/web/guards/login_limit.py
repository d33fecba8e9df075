"""The login rate limit: attempts counted before the password is checked, per name and address and per address.

Every login attempt is *counted before* its password hash is computed, in
one step of the event loop (no ``await`` between the check and the count),
so guesses sent at once cannot all slip under the limit while the first ones
are still being hashed: with a limit of 5, of 40 simultaneous guesses 5 are
checked and 35 refused.  An attempt that succeeds is taken back.  Two limits
apply, each in a sliding window:

* per account name and client address (``login_max_failures``, default 5
  per 60 s): guessing one account's password;
* per client address across every name (``login_max_failures_per_address``,
  default 20 per 60 s): spraying guesses over many names, existing or not.

The counts live in memory, per server process; with several workers
:class:`stich.web.cluster.shared_limits.RedisLoginLimiter` keeps them in
Redis.  The server uses either through :class:`LoginLimits`.  The client address comes
from :func:`stich.web.guards.client_address.client_address`, which believes
``X-Forwarded-For`` only from configured proxies.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

MAX_KEYS = 100_000
"""Counters kept before stale ones are dropped, so that an attacker cannot make the limiter grow without bound."""


@dataclass(frozen=True)
class Attempt:
    """One counted login attempt: its name key, address and time (to take it back when it succeeds)."""

    name_key: str
    address: str
    at: float


class SlidingWindows:
    """Times of attempts per key within a sliding window (also :mod:`stich.web.guards.action_limits`'s counts)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.times: dict[object, deque[float]] = {}

    def recent(self, key: object, now: float) -> deque[float]:
        times = self.times.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self.times[key]
        return times

    def wait(self, key: object, now: float) -> int | None:
        """Seconds until ``key`` may try again, or ``None`` if it may now."""
        times = self.recent(key, now)
        if len(times) < self.limit:
            return None
        return max(1, math.ceil(times[-self.limit] + self.window - now))

    def add(self, key: object, now: float) -> None:
        self.times.setdefault(key, deque()).append(now)
        if len(self.times) > MAX_KEYS:
            for stale in [k for k in list(self.times) if not self.recent(k, now)]:
                self.times.pop(stale, None)

    def take_back(self, key: object, at: float) -> None:
        times = self.times.get(key)
        if times is not None and at in times:
            times.remove(at)
            if not times:
                del self.times[key]


class LoginLimiter:
    """Login attempts per (name key, address) and per address, counted before the hash; in memory, per process."""

    def __init__(
        self, max_failures: int, window: float, max_per_address: int | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.clock = clock
        self._per_name = SlidingWindows(max_failures, window)
        self._per_address = SlidingWindows(max_per_address if max_per_address is not None else 4 * max_failures, window)

    def begin(self, name_key: str, address: str) -> Attempt | int:
        """Count an attempt and return it, or, past either limit, the seconds to wait (nothing is counted then)."""
        now = self.clock()
        waits = [w for w in (self._per_name.wait((name_key, address), now), self._per_address.wait(address, now)) if w is not None]
        if waits:
            return max(waits)
        self._per_name.add((name_key, address), now)
        self._per_address.add(address, now)
        return Attempt(name_key, address, now)

    def succeeded(self, attempt: Attempt) -> None:
        """The attempt was right: it does not count, and the name's earlier failures from that address are forgotten."""
        self._per_name.times.pop((attempt.name_key, attempt.address), None)
        self._per_address.take_back(attempt.address, attempt.at)

    def cancelled(self, attempt: Attempt) -> None:
        """The attempt was not checked (the server was busy): it does not count."""
        self._per_name.take_back((attempt.name_key, attempt.address), attempt.at)
        self._per_address.take_back(attempt.address, attempt.at)

    async def abegin(self, name_key: str, address: str) -> Attempt | int:
        """:meth:`begin`, as :class:`LoginLimits` asks."""
        return self.begin(name_key, address)

    async def asucceeded(self, attempt: Attempt) -> None:
        """:meth:`succeeded`, as :class:`LoginLimits` asks."""
        self.succeeded(attempt)

    async def acancelled(self, attempt: Attempt) -> None:
        """:meth:`cancelled`, as :class:`LoginLimits` asks."""
        self.cancelled(attempt)

    async def afailed(self, attempt: Attempt) -> None:
        """The attempt failed; it stays counted (nothing to do)."""


class LoginLimits(Protocol):
    """What the login handler needs of a login limiter: in memory (:class:`LoginLimiter`) or in Redis (several workers)."""

    async def abegin(self, name_key: str, address: str) -> Attempt | int:
        """Count an attempt and return it, or the seconds to wait."""

    async def asucceeded(self, attempt: Attempt) -> None:
        """Take a successful attempt back."""

    async def acancelled(self, attempt: Attempt) -> None:
        """Take an unchecked attempt back."""

    async def afailed(self, attempt: Attempt) -> None:
        """An attempt failed (it stays counted)."""
