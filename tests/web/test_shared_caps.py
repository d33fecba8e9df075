"""The table caps per person and per address hold across workers, counted in Redis (issue 33; a real redis-server).

Issue 33, "Bots off the event loop, across workers": one bot pool per worker
with shared quotas.

In one process the caps of :mod:`stich.web.guards.table_caps` (issue 30) count the
process's own tables; with several workers they are counted in Redis
(:mod:`stich.web.cluster.shared_caps`, docs/decisions/0033-several-workers.md
"Shared limits"), so that a person cannot open the cap of search tables on
every worker.  The first tests drive :class:`SharedTableCaps` directly (two
Redis connections for two workers, leases set by hand); the others run two
whole apps (two "workers" on one database and one Redis), as
tests/web/test_shared_limits.py does.  Search bots sit in some seats only
where a table must not start, so that no search runs.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.cluster import keys
from stich.web.cluster.shared_caps import SEARCH, TABLES, SharedTableCaps
from stich.web.guards.table_caps import Owner
from stich.web.protocol import ApiError
from stich.web.settings import Settings

from .helpers import call, create_table, make_settings, new_guest, run_async, running, svc, wait_for

ADA = Owner(("session", 1), "1.1.1.1")
BEA = Owner(("session", 2), "1.1.1.1")
TEST_ADDRESS = "testclient"
"""The client address of Starlette's test client."""


def seat_bot(client: TestClient, token: str, table_id: str, bot: str, seat: int = 1) -> Any:
    return call(client, "POST", f"/api/tables/{table_id}/bots", token, json={"bot": bot, "seats": [seat]})


def test_a_cap_counts_the_tables_of_every_worker_and_drops_those_whose_lease_is_gone(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        settings = Settings(max_search_tables_per_person=2, max_search_tables_per_address=3)
        one, two = SharedTableCaps(first, settings), SharedTableCaps(second, settings)
        try:
            for table in ("t1", "t2", "t3", "t4"):  # the tables' workers hold their leases
                await first.set(keys.lease(table), "worker-a" if table in ("t1", "t3") else "worker-b", px=60_000)
            await one.claim("t1", ADA, [(SEARCH, "bot")])
            await two.claim("t2", ADA, [(SEARCH, "bot")])
            await two.claim("t2", ADA, [(SEARCH, "bot")])  # a table never counts against itself
            for caps in (one, two):
                with pytest.raises(ApiError) as refused:
                    await caps.claim("t3", ADA, [(SEARCH, "bot")])
                assert refused.value.status == 429 and refused.value.field == "bot" and "one person" in refused.value.message
            await one.claim("t3", BEA, [(SEARCH, "bots")])  # another person at the address: the address has one left (3)
            with pytest.raises(ApiError) as refused:
                await two.claim("t4", Owner(("user", 7), "1.1.1.1"), [(SEARCH, "bots"), (TABLES, "tables")])
            assert refused.value.field == "bots" and "address" in refused.value.message
            assert not await first.sismember(keys.quota(TABLES, "person:user:7"), "t4")  # refused: counted nowhere

            await first.delete(keys.lease("t1"))  # t1's worker died: its lease ran out
            await one.claim("t4", ADA, [(SEARCH, "bot")])
            assert await first.smembers(keys.quota(SEARCH, "person:session:1")) == {"t2", "t4"}

            await two.release("t2", [(SEARCH, ADA)], forget_owners=True)  # t2 ended
            await first.set(keys.lease("t5"), "worker-a", px=60_000)
            await one.claim("t5", ADA, [(SEARCH, "bot")])
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_claims_sent_at_once_to_two_workers_cannot_slip_under_the_cap(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        settings = Settings(max_tables_per_person=3, max_tables_per_address=5)
        one, two = SharedTableCaps(first, settings), SharedTableCaps(second, settings)
        try:
            tables = [f"t{n}" for n in range(40)]
            for table in tables:
                await first.set(keys.lease(table), "worker", px=60_000)

            async def claim(caps: SharedTableCaps, table: str, owner: Owner) -> bool:
                try:
                    await caps.claim(table, owner, [(TABLES, "tables")])
                except ApiError:
                    return False
                return True

            people = [Owner(("session", n % 4), "2.2.2.2") for n in range(40)]
            results = await asyncio.gather(*[claim(one if n % 2 else two, table, people[n]) for n, table in enumerate(tables)])
            assert sum(results) == 5  # the address's cap, though four people asked on two workers at once
            won = [people[n].person for n, ok in enumerate(results) if ok]
            assert max(won.count(person) for person in set(won)) <= 3
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def two_workers(tmp_path: Path, redis_url: str, **changes: Any) -> Settings:
    return make_settings(f"sqlite:///{tmp_path / 'stich.db'}", redis_url=redis_url, **changes)


def test_search_tables_opened_on_two_workers_share_one_cap(redis_url: str, tmp_path: Path) -> None:
    settings = two_workers(tmp_path, redis_url, max_search_tables_per_person=2, max_search_tables_per_address=3)
    with running(settings) as a, running(settings) as b:
        ada = new_guest(a, "Ada")
        on_a = create_table(a, ada, game="doppelkopf", seat=0)["id"]
        on_b = create_table(b, ada, game="doppelkopf", seat=0)["id"]
        third = create_table(a, ada, game="doppelkopf", seat=0)["id"]
        assert seat_bot(a, ada, on_a, "pimc:level=1").status_code == 200
        assert seat_bot(b, ada, on_b, "pimc:level=1").status_code == 200
        for worker in (a, b):  # the third table is A's; through B the call is forwarded to A
            refused = seat_bot(worker, ada, third, "pimc:level=1")
            assert refused.status_code == 429 and refused.json()["field"] == "bot" and "one person" in refused.json()["message"]
        assert [seat["kind"] for seat in call(b, "GET", f"/api/tables/{third}").json()["seats"]] == ["human", "empty", "empty", "empty"]
        refused = call(b, "POST", "/api/tables", ada, json={"game": "doppelkopf", "bots": "pimc:level=1"})
        assert refused.status_code == 429 and refused.json()["field"] == "bots"

        bea = new_guest(b, "Bea")  # the same address: one search table left, on either worker
        mine = create_table(b, bea, game="doppelkopf", seat=0)["id"]
        assert seat_bot(b, bea, mine, "ismcts:level=1").status_code == 200
        cleo = new_guest(a, "Cleo")
        before = call(a, "GET", "/api/tables").json()["total"]
        refused = call(a, "POST", "/api/tables", cleo, json={"game": "doppelkopf", "bots": "pimc:level=1"})
        assert refused.status_code == 429 and refused.json()["field"] == "bots" and "address" in refused.json()["message"]
        assert call(a, "GET", "/api/tables").json()["total"] == before  # refused before anything was stored
        assert seat_bot(a, ada, third, "heuristic").status_code == 200  # quick bots are not capped


def test_a_table_that_ends_frees_its_count_on_every_worker(redis_url: str, tmp_path: Path) -> None:
    # bots 0.15 s apart: the quick deal lasts at least 7 s, so it cannot end before the refusal below is asked for
    settings = two_workers(tmp_path, redis_url, max_tables_per_person=2, bot_delay_seconds=0.15)
    with running(settings) as a, running(settings) as b:
        ada = new_guest(a, "Ada")
        create_table(b, ada, game="doppelkopf", seat=0)
        quick = create_table(a, ada, game="doppelkopf", deals=1, seat=None, bots="heuristic")  # four bots, one deal: it ends by itself
        assert quick["status"] == "playing"
        refused = call(b, "POST", "/api/tables", ada, json={"game": "doppelkopf"})
        assert refused.status_code == 429 and refused.json()["field"] == "tables" and "2 unfinished tables" in refused.json()["message"]
        wait_for(lambda: call(b, "GET", f"/api/tables/{quick['id']}").json()["status"] == "finished", timeout=60, what="the deal's end")
        assert create_table(b, ada, game="doppelkopf", seat=0)["status"] == "open"  # counted on A, freed on A, seen by B
        refused = call(a, "POST", "/api/tables", ada, json={"game": "doppelkopf"})
        assert refused.status_code == 429 and refused.json()["field"] == "tables"


async def _probe(redis_url: str, settings: Settings, owner: Owner) -> bool:
    """Whether ``owner`` may count one more table with search bots now (the probe's count is taken back at once)."""
    from redis.asyncio import Redis

    redis = Redis.from_url(redis_url, decode_responses=True)
    caps = SharedTableCaps(redis, settings)
    try:
        await redis.set(keys.lease("probe"), "probe", px=60_000)
        await caps.claim("probe", owner, [(SEARCH, "bots")])
        await caps.release("probe", [(SEARCH, owner)], forget_owners=True)
        return True
    except ApiError:
        return False
    finally:
        await redis.delete(keys.lease("probe"))
        await redis.aclose()


def test_a_stopped_worker_s_tables_count_nowhere_until_another_worker_takes_them_over(redis_url: str, tmp_path: Path) -> None:
    settings = two_workers(tmp_path, redis_url, max_search_tables_per_person=1, max_search_tables_per_address=2)
    with running(settings) as a:
        ada, bea = new_guest(a, "Ada"), new_guest(a, "Bea")
        tables = [create_table(a, token, game="doppelkopf", seat=0)["id"] for token in (ada, bea)]
        for token, table in zip((ada, bea), tables, strict=True):
            assert seat_bot(a, token, table, "pimc:level=1").status_code == 200
        import redis

        counted = redis.Redis.from_url(redis_url, decode_responses=True).smembers(keys.quota(SEARCH, f"address:{TEST_ADDRESS}"))
        assert counted == set(tables)  # the test client's address
        assert not run_async(_probe(redis_url, settings, Owner(("session", 999), TEST_ADDRESS)))  # the address has its two
    # A stopped and gave its leases up; no worker runs the tables: they count nowhere (a probe at their address passes)
    assert run_async(_probe(redis_url, settings, Owner(("session", 999), TEST_ADDRESS)))
    with running(settings) as b:
        owned = svc(b).tables.owned  # type: ignore[attr-defined]
        wait_for(lambda: all(table in owned for table in tables), timeout=30, what="B taking A's tables over")
        # B counts them again against whom they counted on A: the person, and the address (which the database does not keep)
        cleo = new_guest(b, "Cleo")
        refused = call(b, "POST", "/api/tables", cleo, json={"game": "doppelkopf", "bots": "pimc:level=1"})
        assert refused.status_code == 429 and refused.json()["field"] == "bots" and "address" in refused.json()["message"]
        fresh = create_table(b, ada, game="doppelkopf", seat=0)["id"]
        refused = seat_bot(b, ada, fresh, "pimc:level=1")
        assert refused.status_code == 429 and "one person" in refused.json()["message"]
