"""Who is online, shared by every worker through Redis (:mod:`stich.web.runtime.online` is the one-process board).

The board is a sorted set (:data:`~stich.web.cluster.keys.ONLINE`) of person
keys scored by when they were last seen, in Redis's own milliseconds
(``TIME``: workers with skewed clocks agree), and a hash of their names
(:data:`~stich.web.cluster.keys.ONLINE_NAMES`).  Each call is one Lua
script that first drops the entries older than the window, so the board
never needs a sweeper and a dead worker's people lapse by themselves.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from stich.web.cluster import keys
from stich.web.identity import Identity
from stich.web.runtime.online import MAX_LISTED, ONLINE_SECONDS, Online, person_key

if TYPE_CHECKING:
    from redis.asyncio import Redis

PRUNE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local old = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
for _, member in ipairs(old) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('HDEL', KEYS[2], member)
end
"""
"""Drop the entries older than the window (ARGV[1], milliseconds); leaves ``now`` set for the rest of the script."""

SEEN = (
    PRUNE
    + """
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
"""
)
"""ARGV: window, person key, name."""

SNAPSHOT = (
    PRUNE
    + """
local count = redis.call('ZCARD', KEYS[1])
local members = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
local result = {count}
for _, member in ipairs(members) do
  table.insert(result, redis.call('HGET', KEYS[2], member) or '')
end
return result
"""
)
"""ARGV: window, how many names; returns the count, then the names, most recently seen first."""

ACCOUNTS = (
    PRUNE
    + """
local found = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then table.insert(found, ARGV[i]) end
end
return found
"""
)
"""ARGV: window, then person keys; returns those on the board."""


class SharedOnlineBoard:
    """The online board of every worker, in Redis."""

    def __init__(self, redis: Redis, window: float = ONLINE_SECONDS) -> None:
        self.redis = redis
        self.window_ms = int(window * 1000)
        self._seen: Any = redis.register_script(SEEN)
        self._snapshot: Any = redis.register_script(SNAPSHOT)
        self._accounts: Any = redis.register_script(ACCOUNTS)

    async def seen(self, identity: Identity) -> None:
        """``identity``'s person has a page open now."""
        await self._seen(keys=[keys.ONLINE, keys.ONLINE_NAMES], args=[self.window_ms, person_key(identity), identity.name])

    async def gone(self, identity: Identity) -> None:
        """``identity``'s person logged out: off the board at once."""
        member = person_key(identity)
        await self.redis.zrem(keys.ONLINE, member)
        await self.redis.hdel(keys.ONLINE_NAMES, member)

    async def snapshot(self, limit: int = MAX_LISTED) -> Online:
        """How many are online, and up to ``limit`` names, most recently seen first."""
        answer = await self._snapshot(keys=[keys.ONLINE, keys.ONLINE_NAMES], args=[self.window_ms, limit])
        names = tuple(name.decode() if isinstance(name, bytes) else str(name) for name in answer[1:])
        return Online(int(answer[0]), names)

    async def online_accounts(self, user_ids: Collection[int]) -> set[int]:
        """Which of the accounts ``user_ids`` are online."""
        if not user_ids:
            return set()
        args = [self.window_ms, *(f"u{user_id}" for user_id in user_ids)]
        found = await self._accounts(keys=[keys.ONLINE, keys.ONLINE_NAMES], args=args)
        return {int((m.decode() if isinstance(m, bytes) else str(m))[1:]) for m in found}
