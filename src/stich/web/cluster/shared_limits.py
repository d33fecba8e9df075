"""The login and message rate limits counted in Redis, so that they hold across workers.

Each check and its count are one Lua script, which Redis runs atomically:
attempts sent at once to several workers cannot all slip under a limit.
Times are Redis's own clock (``TIME``), so workers with skewed clocks agree.

* Logins (:class:`RedisLoginLimiter`): the sliding windows of
  :mod:`stich.web.guards.login_limit` as sorted sets of attempt times, per account
  name and address and per address; an attempt that succeeds or is never
  checked is taken back, as in one process.
* Lobby write requests (:class:`RedisActionLimiter`): the sliding windows of
  :mod:`stich.web.guards.action_limits`, per action kind and client and per
  action kind and address, counted by the login script (a request is counted
  in both windows or in neither).
* Messages (:class:`SharedBudgets`): the token buckets of
  :mod:`stich.web.guards.socket_limits` (per client and per address, a minute's
  worth refilling evenly) as hashes; a message spends from both buckets or
  from neither.  A worker takes a few tokens at once from a bucket more than
  half full and spends them without a round trip (issue 42).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stich.web.cluster import keys
from stich.web.guards.action_limits import limits_of
from stich.web.guards.login_limit import Attempt
from stich.web.guards.socket_limits import client_key
from stich.web.identity import Identity

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from stich.web.settings import Settings

LOGIN_BEGIN = """
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local window = tonumber(ARGV[1])
local limits = {tonumber(ARGV[2]), tonumber(ARGV[3])}
local wait = 0
for index, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limits[index] then
    local oldest = redis.call('ZRANGE', key, count - limits[index], count - limits[index], 'WITHSCORES')
    local until_ms = tonumber(oldest[2]) + window - now
    if until_ms > wait then wait = until_ms end
  end
end
if wait > 0 then return {0, wait} end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
end
return {1, now}
"""
"""KEYS: name key, address key (or an action's client and address keys); ARGV: window ms, the two limits, a unique member.

Returns ``{1, now}`` when counted, ``{0, ms to wait}`` when not.
"""

TAKE = """
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) + tonumber(now_parts[2]) / 1000000
local levels = {}
local taken = {}
for index, key in ipairs(KEYS) do
  local per_minute = tonumber(ARGV[2 * index - 1])
  local want = tonumber(ARGV[2 * index])
  taken[index] = 0
  if want > 0 then
    local stored = redis.call('HMGET', key, 'tokens', 'at')
    local tokens = tonumber(stored[1]) or per_minute
    local at = tonumber(stored[2]) or now
    tokens = math.min(per_minute, tokens + (now - at) * per_minute / 60.0)
    if tokens < 1 then return {0, 0} end
    levels[index] = tokens
    taken[index] = math.max(1, math.min(want, math.floor(tokens - per_minute / 2)))
  end
end
for index, key in ipairs(KEYS) do
  if taken[index] > 0 then
    redis.call('HSET', key, 'tokens', tostring(levels[index] - taken[index]), 'at', tostring(now))
    redis.call('EXPIRE', key, 120)
  end
end
return taken
"""
"""KEYS: the client's and the address's bucket; ARGV: per bucket its budget per minute and the tokens wanted (0: none needed).

Returns the tokens taken from each bucket (``{0, 0}``: a needed bucket was
empty, and nothing was taken).  A bucket gives one token, or up to the
tokens wanted from the part of it above half full: a worker keeps those
for the next messages (:class:`SharedBudgets`), and a bucket near empty
gives one at a time, exactly as one process counts.
"""


class RedisLoginLimiter:
    """:class:`stich.web.guards.login_limit.LoginLimiter`'s limits, counted in Redis for every worker."""

    def __init__(self, redis: Redis, max_failures: int, window: float, max_per_address: int | None = None, kind: str = "login") -> None:
        self.redis = redis
        self.kind = kind
        """What is counted (the keys' part): ``login`` attempts, or new ``accounts`` (:mod:`stich.web.api.accounts`'s sign-up limit)."""
        self.max_failures = max_failures
        self.max_per_address = max_per_address if max_per_address is not None else 4 * max_failures
        self.window_ms = max(1, round(window * 1000))
        self._begin = redis.register_script(LOGIN_BEGIN)
        self._members: dict[Attempt, str] = {}

    async def abegin(self, name_key: str, address: str) -> Attempt | int:
        """Count an attempt and return it, or, past either limit, the seconds to wait (nothing is counted then)."""
        member = secrets.token_hex(8)
        result: Any = await self._begin(
            keys=[keys.login_name(name_key, address, self.kind), keys.login_address(address, self.kind)],
            args=[self.window_ms, self.max_failures, self.max_per_address, member],
        )
        counted, value = int(result[0]), int(result[1])
        if not counted:
            return max(1, -(-value // 1000))
        attempt = Attempt(name_key, address, value / 1000)
        self._members[attempt] = member
        return attempt

    async def asucceeded(self, attempt: Attempt) -> None:
        """The attempt was right: it does not count, and the name's earlier failures from that address are forgotten."""
        member = self._members.pop(attempt, None)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(keys.login_name(attempt.name_key, attempt.address, self.kind))
            if member is not None:
                pipe.zrem(keys.login_address(attempt.address, self.kind), member)
            await pipe.execute()

    async def acancelled(self, attempt: Attempt) -> None:
        """The attempt was not checked (the server was busy): it does not count."""
        member = self._members.pop(attempt, None)
        if member is None:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(keys.login_name(attempt.name_key, attempt.address, self.kind), member)
            pipe.zrem(keys.login_address(attempt.address, self.kind), member)
            await pipe.execute()

    async def afailed(self, attempt: Attempt) -> None:
        """The attempt failed: it stays counted in Redis, and this process need not remember it any more."""
        self._members.pop(attempt, None)


class RedisActionLimiter:
    """:class:`stich.web.guards.action_limits.ActionLimiter`'s limits, counted in Redis for every worker."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.settings = settings
        self.window_ms = max(1, round(settings.action_window_seconds * 1000))
        self._begin = redis.register_script(LOGIN_BEGIN)

    async def acount(self, action: str, client: str, address: str) -> int | None:
        """Count one ``action`` of ``client`` from ``address`` on every worker, or, past either limit, return the seconds to wait."""
        per_client, per_address = limits_of(self.settings, action)
        result: Any = await self._begin(
            keys=[keys.action(action, f"client:{client}"), keys.action(action, f"address:{address}")],
            args=[self.window_ms, per_client, per_address, secrets.token_hex(8)],
        )
        counted, value = int(result[0]), int(result[1])
        return None if counted else max(1, -(-value // 1000))


class SharedBudgets:
    """The per-client and per-address message budgets of :class:`stich.web.guards.socket_limits.SocketLimits`, in Redis.

    A Redis round trip per message was a tenth of a cluster action's CPU
    (issue 42, "the cluster's cost").  So a worker takes up to
    :meth:`chunk` tokens at once (``CHUNK``, or a thirtieth of a larger
    budget: 40 of an address's 1,200) from a bucket that is more than half
    full and spends them on that client's (or address's) next messages
    within ``HOLD_SECONDS`` without asking Redis (:data:`TAKE`); while one
    message asks, the others of the same bucket wait for its answer rather
    than ask too.  Nothing is spent that Redis did not give: across all
    workers no more messages pass than the buckets hold, plus at most the
    held tokens of each worker in any window (2 s of a budget).  A bucket
    at half or less gives one token per message, as one process counts, so
    a client near its limit is refused exactly where it was; tokens another
    worker holds unused return with the refill.
    """

    CHUNK = 8
    """Tokens a worker takes from a bucket at most per round trip: at least this many, or :data:`CHUNK_SHARE` of a larger budget."""
    CHUNK_SHARE = 30
    """A bucket gives up to a thirtieth of its budget per minute at once (2 s of it: 40 of 1,200), at most ``MAX_CHUNK``."""
    MAX_CHUNK = 64
    HOLD_SECONDS = 60.0
    """How long a worker may spend the tokens it took (a person at a table sends a message every few seconds)."""

    def __init__(self, redis: Redis, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.redis = redis
        self.per_client = settings.max_messages_per_minute
        self.per_address = settings.max_messages_per_minute_per_address
        self._take = redis.register_script(TAKE)
        self._clock = clock
        self._held: dict[str, tuple[int, float]] = {}
        """Bucket key -> (tokens this worker took and has not spent, until when it may spend them)."""
        self._refills: dict[str, asyncio.Lock] = {}
        """Bucket key -> held while this worker asks Redis for that bucket's tokens (one round trip at a time per bucket)."""

    def chunk(self, budget: int) -> int:
        """Tokens to ask for at once from a bucket of ``budget`` messages per minute (:data:`CHUNK`, more for a larger budget)."""
        return max(self.CHUNK, min(self.MAX_CHUNK, budget // self.CHUNK_SHARE))

    async def allow(self, identity: Identity | None, address: str) -> bool:
        """Spend one message of the client's and the address's shared budget; whether both had one left."""
        buckets = ((keys.budget(client_key(identity, address)), self.per_client), (keys.budget(f"address:{address}"), self.per_address))
        if not all(self._ready(key) for key, _budget in buckets):
            # Messages of one address arrive together: the first asks Redis, the others wait for its tokens instead of asking too
            # (before, each asked, and each answer replaced the last: half the Lua calls of a flat-out cluster run were such)
            locks = [self._refills.setdefault(key, asyncio.Lock()) for key, _budget in sorted(buckets)]
            async with contextlib.AsyncExitStack() as stack:
                for lock in locks:
                    await stack.enter_async_context(lock)
                if not await self._refill(buckets):
                    return False
        now = self._clock()
        for key, _budget in buckets:
            tokens, until = self._held[key]
            self._held[key] = (tokens - 1, until)
        if len(self._held) > 4096:  # forget the expired and the spent ones now and then
            self._held = {key: entry for key, entry in self._held.items() if entry[0] > 0 and entry[1] > now}
            self._refills = {key: lock for key, lock in self._refills.items() if lock.locked()}
        return True

    def _ready(self, key: str) -> bool:
        """Whether this worker holds a token of bucket ``key`` it may still spend."""
        entry = self._held.get(key)
        return entry is not None and entry[0] > 0 and entry[1] > self._clock()

    async def _refill(self, buckets: tuple[tuple[str, int], ...]) -> bool:
        """Take tokens from Redis for the buckets this worker holds none of (one round trip); whether every bucket has one now."""
        ready = [self._ready(key) for key, _budget in buckets]  # again: another message's refill may have brought them
        if all(ready):
            return True
        args: list[int] = []
        for (_key, budget), has in zip(buckets, ready, strict=True):
            args += [budget, 0 if has else self.chunk(budget)]
        taken: Any = await self._take(keys=[key for key, _budget in buckets], args=args)
        counts = [int(count) for count in taken]
        if not any(counts):
            return False
        now = self._clock()
        for (key, _budget), has, count in zip(buckets, ready, counts, strict=True):
            if not has:  # what was held is spent or expired (the lock is held: no other message took tokens for it meanwhile)
                self._held[key] = (count, now + self.HOLD_SECONDS)
        return True
