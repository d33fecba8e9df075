"""The table caps per person and per address counted in Redis, so that they hold across workers.

In one process the caps of :mod:`stich.web.guards.table_caps` count the process's own
tables.  With several workers each would count only its own, and a person could
open ``max_search_tables_per_person`` tables with search bots on every worker
and load every worker's bot pool.  Here each count is a Redis set of table ids
per person and per address (:func:`~stich.web.cluster.keys.quota`, ``tables``
for the tables created, ``search`` for the tables with search bots), and
checking a cap and adding the table is one Lua script, so requests sent at
once to several workers cannot all slip under it.

**What counts.** A table counts while it is unfinished *and* a worker holds its
lease (:mod:`~stich.web.cluster.leases`).  The script drops, before counting,
every member whose lease is gone, so a dead worker's tables stop counting
within ``lease_seconds`` without anybody cleaning up after it.  The worker that
takes such a table over adds it again, against the owners stored with it
(:func:`~stich.web.cluster.keys.quota_owners`: person and address), so a table
counts for as long as it is played, on whichever worker.  A table that ends is
taken out of its sets at once.

The refusals are those of one process (429 naming ``tables``, ``bots`` or
``bot``, :func:`stich.web.guards.table_caps.refusal`).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from stich.web.cluster import keys
from stich.web.guards.table_caps import Owner, refusal

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from stich.web.settings import Settings

log = logging.getLogger("stich.web.cluster")

TABLES = "tables"
"""The count of unfinished tables created (``max_tables_per_person`` / ``_per_address``)."""
SEARCH = "search"
"""The count of unfinished tables with search bots (``max_search_tables_per_person`` / ``_per_address``)."""
WHAT = {TABLES: "tables", SEARCH: "tables with search bots"}

CLAIM = """
local table_id = ARGV[1]
local leases = ARGV[2]
for index, key in ipairs(KEYS) do
  local count = 0
  for _, member in ipairs(redis.call('SMEMBERS', key)) do
    if member ~= table_id then
      if redis.call('EXISTS', leases .. member) == 1 then
        count = count + 1
      else
        redis.call('SREM', key, member)
      end
    end
  end
  if count >= tonumber(ARGV[index + 2]) then
    return {index, count}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('SADD', key, table_id)
end
return {0, 0}
"""
"""KEYS: the sets to count in, in the order of checking; ARGV: the table id, the lease keys' prefix, each set's cap.

Members other than the table itself whose lease is gone are dropped; then the
first set holding its cap of others refuses (``{its 1-based index, its
count}``, nothing added), else the table is added to every set (``{0, 0}``).
The table itself never counts against itself: adding it again changes nothing.
The lease keys are named from the members, so this needs one Redis, not a
Redis Cluster (as the rest of :mod:`stich.web.cluster`).
"""


def _who(owner: Owner) -> list[tuple[str, str]]:
    """(``person``/``address``, the key suffix) of ``owner``: the person always, the address when known."""
    kind, number = owner.person
    found = [("person", f"person:{kind}:{number}")]
    if owner.address is not None:
        found.append(("address", f"address:{owner.address}"))
    return found


def _owner_json(owner: Owner) -> str:
    return json.dumps([owner.person[0], owner.person[1], owner.address])


def _owner(text: str) -> Owner:
    kind, number, address = json.loads(text)
    return Owner((str(kind), int(number)), None if address is None else str(address))


class SharedTableCaps:
    """The table caps of :mod:`stich.web.guards.table_caps`, counted in Redis for every worker (see the module's docstring)."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.caps = {
            (TABLES, "person"): settings.max_tables_per_person,
            (TABLES, "address"): settings.max_tables_per_address,
            (SEARCH, "person"): settings.max_search_tables_per_person,
            (SEARCH, "address"): settings.max_search_tables_per_address,
        }
        self._claim = redis.register_script(CLAIM)

    async def claim(self, table_id: str, owner: Owner, counts: list[tuple[str, str]]) -> None:
        """Count ``table_id`` against ``owner`` in each of ``counts`` (``(TABLES or SEARCH, field)``, checked in order), or in none.

        Raises the 429 of the first count at its cap (the person's before
        the address's), naming that count's field; then nothing is added.
        """
        sets: list[str] = []
        limits: list[int] = []
        meaning: list[tuple[str, str, str]] = []
        for kind, field in counts:
            for whose, who in _who(owner):
                sets.append(keys.quota(kind, who))
                limits.append(self.caps[(kind, whose)])
                meaning.append((kind, field, whose))
        result: Any = await self._claim(keys=sets, args=[table_id, keys.lease(""), *limits])
        index, count = int(result[0]), int(result[1])
        if index:
            kind, field, whose = meaning[index - 1]
            raise refusal(whose, count, field, WHAT[kind])
        await self.redis.hset(keys.quota_owners(table_id), mapping={kind: _owner_json(owner) for kind, _field in counts})

    async def release(self, table_id: str, counts: list[tuple[str, Owner | None]], *, forget_owners: bool = False) -> None:
        """Take ``table_id`` out of ``counts`` (``(TABLES or SEARCH, whom it counted against)``); ``forget_owners``: the table ended."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for kind, owner in counts:
                if owner is None:
                    continue
                for _whose, who in _who(owner):
                    pipe.srem(keys.quota(kind, who), table_id)
                if not forget_owners:
                    pipe.hdel(keys.quota_owners(table_id), kind)
            if forget_owners:
                pipe.delete(keys.quota_owners(table_id))
            await pipe.execute()

    async def adopt(self, table_id: str, creator: Owner | None, search_owner: Owner | None) -> tuple[Owner | None, Owner | None]:
        """A worker took the unfinished table over: whom it counts against (as stored when it was counted, else as given), counted again.

        The table is added without a check: it exists already, and it counted
        before its worker died.
        """
        stored = {str(field): str(value) for field, value in (await self.redis.hgetall(keys.quota_owners(table_id))).items()}
        if creator is not None and TABLES in stored:
            creator = _owner(stored[TABLES])
        if search_owner is not None and SEARCH in stored:
            search_owner = _owner(stored[SEARCH])
        async with self.redis.pipeline(transaction=False) as pipe:
            for kind, owner in ((TABLES, creator), (SEARCH, search_owner)):
                if owner is None:
                    continue
                for _whose, who in _who(owner):
                    pipe.sadd(keys.quota(kind, who), table_id)
            await pipe.execute()
        return creator, search_owner
