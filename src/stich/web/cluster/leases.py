"""Table leases in Redis: which worker runs a table, for how long, and taking over a dead worker's tables.

A lease is the key :func:`~stich.web.cluster.keys.lease` holding the owner's
worker id with an expiry of ``lease_seconds``.  It is taken with ``SET NX``
(only where nobody holds it), renewed and released only by its holder (a
script compares the holder first), so a worker that was paused past its
lease cannot extend or drop the lease of the worker that took over.  The
owner renews every third of the lease; a renewal that finds the lease gone
or held by another worker makes the owner drop the table at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from stich.web.cluster import keys

if TYPE_CHECKING:
    from redis.asyncio import Redis

RENEW = """
local lost = {}
for index, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, index)
  end
end
return lost
"""
"""Renew every lease in KEYS held by ARGV[1] for ARGV[2] ms; return the (1-based) positions of the ones not held any more."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
"""Delete the lease KEYS[1] if ARGV[1] holds it."""


class Leases:
    """The leases of one worker (``worker`` is its id)."""

    def __init__(self, redis: Redis, worker: str, seconds: float) -> None:
        self.redis = redis
        self.worker = worker
        self.ms = max(1, round(seconds * 1000))
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it; whether this worker holds it now."""
        taken = await self.redis.set(keys.lease(table_id), self.worker, nx=True, px=self.ms)
        return bool(taken)

    async def owner(self, table_id: str) -> str | None:
        """The worker holding the lease of ``table_id``, or ``None``."""
        value = await self.redis.get(keys.lease(table_id))
        return cast("str | None", value)

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The holders of several leases at once."""
        if not table_ids:
            return []
        values = await self.redis.mget([keys.lease(table_id) for table_id in table_ids])
        return cast("list[str | None]", values)

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renew the leases of ``table_ids``; the tables whose lease this worker no longer holds."""
        if not table_ids:
            return []
        lost: Any = await self._renew(keys=[keys.lease(table_id) for table_id in table_ids], args=[self.worker, self.ms])
        return [table_ids[int(position) - 1] for position in lost]

    async def release(self, table_id: str) -> None:
        """Give the lease of ``table_id`` up (only if this worker holds it)."""
        await self._release(keys=[keys.lease(table_id)], args=[self.worker])
