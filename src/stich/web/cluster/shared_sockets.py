"""The caps on open table sockets (per client, address and table) counted in Redis, so that they hold across workers.

:class:`stich.web.guards.socket_limits.SocketLimits` counts the sockets of one
process.  With several workers a client could otherwise open the cap on every
worker.  Here each count is a Redis hash per client, address or table
(:func:`~stich.web.cluster.keys.sockets`) holding one field per worker: how
many such sockets that worker has open.  Opening checks and adds in one Lua
script (sockets opened at once on several workers cannot all slip under a
cap); the script counts a worker's field only while the worker's heartbeat
(:func:`~stich.web.cluster.keys.alive`, renewed with its leases) exists, and
deletes the fields of workers without one, so the sockets of a worker that
died lapse with its heartbeat, with nothing to clean up.  Each worker still
checks its own counts first (they protect its own memory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stich.web.cluster import keys

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from stich.web.guards.socket_limits import Ticket

KEPT_SECONDS = 86_400
"""A count expires a day after the last socket opened against it (a safety net: closes and dead workers' lapses keep it right)."""

OPEN = """
for index, key in ipairs(KEYS) do
  local total = 0
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    local worker = fields[i]
    if worker == ARGV[1] or redis.call('EXISTS', ARGV[2] .. worker) == 1 then
      total = total + tonumber(fields[i + 1])
    else
      redis.call('HDEL', key, worker)
    end
  end
  if total >= tonumber(ARGV[index + 3]) then
    return {index, total}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, ARGV[1], 1)
  redis.call('EXPIRE', key, ARGV[3])
end
return {0, 0}
"""
"""KEYS: the client's, the address's and the table's counts; ARGV: this worker, the heartbeat key prefix, seconds kept, the three caps.

Returns ``{0, 0}`` when counted, ``{position of the full count, its sockets}`` when refused (nothing counted then).
"""

CLOSE = """
for _, key in ipairs(KEYS) do
  if redis.call('HINCRBY', key, ARGV[1], -1) <= 0 then
    redis.call('HDEL', key, ARGV[1])
  end
end
return 1
"""
"""KEYS: the counts a socket was opened against; ARGV[1]: this worker.  Takes the socket out of each."""


class SharedSockets:
    """The open-socket caps of one worker (``worker``: its id), counted across workers in Redis."""

    def __init__(self, redis: Redis, worker: str) -> None:
        self.redis = redis
        self.worker = worker
        self._open = redis.register_script(OPEN)
        self._close = redis.register_script(CLOSE)

    async def open(self, ticket: Ticket, caps: list[tuple[str, int, str]]) -> str | None:
        """Count the socket of ``ticket`` on every worker; ``None``, or the reason it is refused past one of ``caps``.

        ``caps``: (count key, cap, whose) as :meth:`stich.web.guards.socket_limits.SocketLimits.caps` gives them.
        """
        found: Any = await self._open(
            keys=[keys.sockets(key) for key, _cap, _whose in caps],
            args=[self.worker, keys.alive(""), KEPT_SECONDS, *[cap for _key, cap, _whose in caps]],
        )
        position, count = int(found[0]), int(found[1])
        if position == 0:
            return None
        _key, cap, whose = caps[position - 1]
        return f"too many connections: {whose} has {count} open, at most {cap}"

    async def close(self, ticket: Ticket) -> None:
        """The socket of ``ticket`` has closed: it no longer counts on any worker."""
        await self._close(keys=[keys.sockets(key) for key in ticket.counts()], args=[self.worker])
