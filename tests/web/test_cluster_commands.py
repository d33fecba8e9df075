"""Decision 0064: one command stream per owning worker, whatever the number of tables it runs (issue 42, the cluster's cost).

The owner's blocking read used to name every owned table's stream (two
arguments per table on every wake-up); now a relay appends to the owner's
one stream, each entry naming its table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.cluster.manager import STREAM_DAYS

from .helpers import call, create_table, make_settings, new_guest, running, svc, wait_for


@pytest.fixture
def workers(db_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient, str]]:
    settings = make_settings(db_url, redis_url=redis_url, lease_seconds=30.0)
    with running(settings) as a, running(settings) as b:
        yield a, b, redis_url


def test_calls_for_every_table_of_a_worker_travel_on_that_worker_s_one_stream(workers: tuple[TestClient, TestClient, str]) -> None:
    from redis import Redis

    a, b, redis_url = workers
    owner = svc(a).tables.worker
    host = new_guest(a, "Host")
    tables = [create_table(a, host, game="doppelkopf", seat=0)["id"] for _ in range(3)]
    for number, table_id in enumerate(tables):
        guest = new_guest(b, f"Gast{number}")
        joined = call(b, "POST", f"/api/tables/{table_id}/join", guest, json={"seat": 1})  # B forwards the join to A
        assert joined.status_code == 200, joined.text
        assert joined.json()["your_seat"] == 1 and joined.json()["id"] == table_id
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        streams = set(redis.scan_iter("stich:commands:*"))
        mine, other = f"stich:commands:{owner}", f"stich:commands:{svc(b).tables.worker}"
        assert streams == {mine, other}  # one per worker, not one per table
        named = [fields.get("t") for _id, fields in redis.xrange(mine)]
        assert [table for table in named if table] == tables  # each forwarded call names its table, in order
        assert not [fields for _id, fields in redis.xrange(other) if fields.get("t")]  # B runs none of them
        assert redis.ttl(mine) > 0  # it expires should the worker die
    finally:
        redis.close()


def test_commands_for_a_table_being_taken_over_are_kept_until_it_runs(workers: tuple[TestClient, TestClient, str]) -> None:
    """Between taking a lease and running the table, a relay may already write (it sees the lease): nothing of that is lost."""
    from redis import Redis

    a, _b, redis_url = workers
    manager = svc(a).tables
    manager._claiming["taking"] = []  # as claim() and create() do before they take the lease
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        stream = f"stich:commands:{manager.worker}"
        for op in ("attach", "message"):
            redis.xadd(stream, {"t": "taking", "c": json.dumps({"op": op, "conn": "c1"})})
        redis.xadd(stream, {"t": "elsewhere", "c": json.dumps({"op": "message", "conn": "c2"})})  # a table it neither runs nor takes
        kept = wait_for(lambda: len(manager._claiming.get("taking", [])) == 2 and manager._claiming["taking"], what="the kept commands")
        assert [command["op"] for command in kept] == ["attach", "message"]
        assert "elsewhere" not in manager._claiming and "elsewhere" not in manager.owned
    finally:
        manager._claiming.pop("taking", None)
        redis.close()


def test_the_heartbeat_renews_the_stream_s_expiry_without_an_entry_and_makes_a_lost_stream_again(
    workers: tuple[TestClient, TestClient, str],
) -> None:
    from redis import Redis

    a, _b, redis_url = workers
    manager = svc(a).tables
    portal: Any = a.portal  # type: ignore[attr-defined]
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        stream = f"stich:commands:{manager.worker}"
        entries = redis.xlen(stream)
        redis.expire(stream, 100)
        for _ in range(3):
            portal.call(manager._keep_stream)
        assert redis.xlen(stream) == entries  # no marker per heartbeat: nothing for the reader to wake up to
        assert redis.ttl(stream) > STREAM_DAYS * 86400 - 60  # the expiry renewed
        redis.delete(stream)  # Redis lost it: relays (NOMKSTREAM) cannot make it, the owner does
        portal.call(manager._keep_stream)
        assert [fields for _id, fields in redis.xrange(stream)] == [{"t": ""}] and redis.ttl(stream) > STREAM_DAYS * 86400 - 60
    finally:
        redis.close()
