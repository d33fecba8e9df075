"""Issue 43's hints on two workers: any worker answers a hint, the one that runs the table computes it.

Before, a worker that did not run the learning table answered 404 (the
browser's request reaches whichever worker the balancer picks).  Now it
forwards the request to the owner, whose refusals come back unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, running, svc

pytestmark = pytest.mark.both_databases


@pytest.fixture
def workers(db_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two workers on one database and one Redis, with a quick, deterministic hint bot."""
    settings = make_settings(
        db_url,
        redis_url=redis_url,
        lease_seconds=30.0,
        hint_bot="pimc:worlds=3",
        hint_interval_seconds=600.0,
        hint_timeout_seconds=300.0,
        bot_workers=1,
    )
    with running(settings) as a, running(settings) as b:
        yield a, b


def _my_turn(reader: Reader) -> dict[str, Any]:
    return reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]), timeout=60)


def test_a_hint_asked_on_the_worker_that_does_not_run_the_table_comes_from_its_owner(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    token = new_guest(a)
    table = create_table(a, token, game="doppelkopf", seat=0, bots="heuristic", learning=True, private=True)
    assert svc(a).tables.get(table["id"]) is not None and svc(b).tables.get(table["id"]) is None  # A runs it, B does not
    plain = create_table(a, token, game="doppelkopf", seat=0, bots="heuristic", private=True)
    refused = call(b, "POST", f"/api/tables/{plain['id']}/hint", token)
    assert refused.status_code == 403 and refused.json()["field"] == "learning"  # the owner's refusal, not B's 404
    stranger = new_guest(b)
    refused = call(b, "POST", f"/api/tables/{table['id']}/hint", stranger)
    assert refused.status_code == 404  # a private table, as with one worker
    with connect(a, table["id"], token) as ws:
        state = _my_turn(Reader(ws))
        response = call(b, "POST", f"/api/tables/{table['id']}/hint", token)
        assert response.status_code == 200, response.text
        hint = response.json()
        assert hint["table"] == table["id"] and hint["seat"] == 0
        assert hint["deal"] == state["deal"] and hint["step"] == state["step"]
        assert hint["action"] in state["view"]["legal_actions"]
        assert hint["reason"]["de"] and hint["reason"]["en"]
        again = call(a, "POST", f"/api/tables/{table['id']}/hint", token)
        assert again.status_code == 200 and again.json() == hint  # the owner gave it: asking it directly returns the same
        stored = svc(a).db.get_deal(state["deal"])
        assert stored is not None and stored.hints == (0,)  # the deal is marked as with one worker
    gone = call(b, "POST", "/api/tables/no-such-table/hint", token)
    assert gone.status_code == 404
