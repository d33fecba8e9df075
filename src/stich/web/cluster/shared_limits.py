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
  from neither.
"""

from __future__ import annotations

import secrets
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
for index, key in ipairs(KEYS) do
  local per_minute = tonumber(ARGV[index])
  local stored = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(stored[1]) or per_minute
  local at = tonumber(stored[2]) or now
  tokens = math.min(per_minute, tokens + (now - at) * per_minute / 60.0)
  if tokens < 1 then return 0 end
  levels[index] = tokens
end
for index, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', tostring(levels[index] - 1), 'at', tostring(now))
  redis.call('EXPIRE', key, 120)
end
return 1
"""
"""KEYS: the client's and the address's bucket; ARGV: their budgets per minute.  1 and both spent, or 0 and nothing spent."""


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
    """The per-client and per-address message budgets of :class:`stich.web.guards.socket_limits.SocketLimits`, in Redis."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.per_client = settings.max_messages_per_minute
        self.per_address = settings.max_messages_per_minute_per_address
        self._take = redis.register_script(TAKE)

    async def allow(self, identity: Identity | None, address: str) -> bool:
        """Spend one message of the client's and the address's shared budget; whether both had one left."""
        taken: Any = await self._take(
            keys=[keys.budget(client_key(identity, address)), keys.budget(f"address:{address}")],
            args=[self.per_client, self.per_address],
        )
        return bool(int(taken))
