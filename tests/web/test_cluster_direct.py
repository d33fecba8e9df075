"""Sockets sent to their table's owner instead of relayed (issue 42, the cluster's cost; decision 0068).

Apps share one Redis and one database (several workers in one process, as
in test_served_or_closed.py); each advertises an address (``worker_url``)
that the test client cannot reach, so the test opens the socket again on the
app the address names, as the browser would at that address.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers
from starlette.testclient import WebSocketTestSession

from stich.web.cluster.direct import MOVED_CODE, request_hostname, socket_base
from stich.web.cluster.manager import ClusterTableManager
from stich.web.guards.cross_site import foreign_origin, normal_origins
from stich.web.settings import Settings, worker_url_problem
from stich.web.storage.login_sessions import COOKIE_NAME

from .helpers import Reader, create_table, make_settings, new_guest, play_as_seat, running, svc


def _manager(client: TestClient) -> ClusterTableManager:
    manager = svc(client).tables
    assert isinstance(manager, ClusterTableManager)
    return manager


def _open(client: TestClient, table_id: str, token: str, *, follow: bool = True) -> WebSocketTestSession:
    client.cookies.clear()
    query = "?follow=1" if follow else ""
    return client.websocket_connect(f"/ws/tables/{table_id}{query}", headers={"cookie": f"{COOKIE_NAME}={token}"})


def _first(client: TestClient, table_id: str, token: str, *, follow: bool = True) -> dict[str, Any]:
    """The first message of a socket opened on ``client`` (the socket closed again)."""
    with _open(client, table_id, token, follow=follow) as ws:
        return Reader(ws).next()


def _moved(client: TestClient, table_id: str, token: str) -> str:
    """Where ``client`` sends a following socket of ``table_id`` (its ``moved`` url), having checked the close code."""
    with _open(client, table_id, token) as ws:
        reader = Reader(ws)
        message = reader.next()
        assert message["type"] == "moved", message
        assert set(message) == {"type", "url"}  # nothing but the address
        with pytest.raises(ConnectionError, match=str(MOVED_CODE)):
            reader.next()
        return str(message["url"])


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 's.db'}"


def _settings(db: str, redis_url: str, address: str = "", **changes: Any) -> Settings:
    return make_settings(db, redis_url=redis_url, lease_seconds=30.0, worker_url=address, **changes)


def test_a_seat_that_reaches_another_worker_is_sent_to_the_owner_and_plays_there_unrelayed(redis_url: str, sqlite_url: str) -> None:
    from redis import Redis

    with (
        running(_settings(sqlite_url, redis_url, "http://a.test:8001")) as a,
        running(_settings(sqlite_url, redis_url, "https://b.test/w2/")) as b,
    ):
        token = new_guest(a)
        table_id = str(create_table(a, token, game="doppelkopf", deals=1, seat=0, bots="heuristic")["id"])
        assert _first(b, table_id, token, follow=False)["type"] == "welcome"  # a client that does not follow is relayed, as before
        assert _moved(b, table_id, token) == "ws://a.test:8001"
        # the owner serves a following socket itself (asked before the deal is played: once its one deal is over, the
        # table ends, and a socket opened then may meet the ended table instead, as a fresh-clone run once did)
        assert _first(a, table_id, token)["type"] == "welcome"
        relayed_before = dict(_manager(a).owned[table_id].remote)  # (a test client's closed socket does not detach: its task is cancelled)
        redis = Redis.from_url(redis_url, decode_responses=True)
        try:
            stream = f"stich:commands:{_manager(a).worker}"
            before = redis.xlen(stream)
            with _open(a, table_id, token) as ws:  # at the address it was given
                reader = Reader(ws)
                assert reader.next()["type"] == "welcome"
                assert play_as_seat(reader)["type"] == "deal_end"
                assert _manager(a).owned[table_id].remote == relayed_before and _manager(b).relayed == {}
            assert redis.xlen(stream) == before  # not one command relayed
        finally:
            redis.close()


def test_without_an_advertised_address_a_following_socket_is_relayed(redis_url: str, sqlite_url: str) -> None:
    with running(_settings(sqlite_url, redis_url)) as a, running(_settings(sqlite_url, redis_url, "http://b.test:8002")) as b:
        token = new_guest(a)
        table_id = str(create_table(a, token, game="doppelkopf", deals=1, seat=0)["id"])
        with _open(b, table_id, token) as ws:
            reader = Reader(ws)
            assert reader.next()["type"] == "welcome"  # served through B, as before decision 0068
            assert [relayed.table for relayed in _manager(b).relayed.values()] == [table_id]


def test_after_a_takeover_the_client_is_sent_to_the_new_owner(redis_url: str, sqlite_url: str) -> None:
    from redis import Redis

    with contextlib.ExitStack() as stack:
        a, b, c = (stack.enter_context(running(_settings(sqlite_url, redis_url, f"http://{x}.test:800{n}"))) for n, x in enumerate("abc"))
        token = new_guest(a)
        table_id = str(create_table(a, token, game="doppelkopf", deals=1, seat=0)["id"])
        assert _moved(c, table_id, token) == "ws://a.test:8000"
        with _open(a, table_id, token) as ws:
            reader = Reader(ws)
            reader.until(lambda message: message["type"] == "table")
            redis = Redis.from_url(redis_url, decode_responses=True)
            try:
                redis.delete(f"stich:lease:{table_id}")  # A's lease lapsed (a pause); B takes the table over
            finally:
                redis.close()
            portal_b: Any = b.portal  # type: ignore[attr-defined]
            assert portal_b.call(_manager(b).claim, table_id) is not None
            portal_a: Any = a.portal  # type: ignore[attr-defined]
            portal_a.call(_manager(a)._renew)  # A's renewal finds the lease gone and lets the table go
            with pytest.raises(ConnectionError, match="1012"):
                reader.until(lambda message: False)
        assert _moved(c, table_id, token) == "ws://b.test:8001"  # the client goes back to where it came in, and on to B
        assert _moved(a, table_id, token) == "ws://b.test:8001"  # also from the old owner's own address
        assert _first(b, table_id, token)["type"] == "welcome"


def test_an_address_naming_the_client_s_host_takes_only_a_plain_hostname(redis_url: str, sqlite_url: str) -> None:
    with running(_settings(sqlite_url, redis_url, "http://{host}:8001")) as a, running(_settings(sqlite_url, redis_url)) as b:
        token = new_guest(a)
        table_id = str(create_table(a, token, game="doppelkopf", deals=1, seat=0)["id"])
        assert _moved(b, table_id, token) == "ws://testserver:8001"  # the name the client used, the owner's port
    assert request_hostname("Play.Example.org:8000") == "play.example.org"
    assert request_hostname("[::1]:8000") == "[::1]"
    for forged in ("evil.test/x", "evil.test@x", "a b", "x:1:2", "", "evil.test#", "evil.test?a=1", "-x", "[::1"):
        assert request_hostname(forged) is None, forged
        assert socket_base("http://{host}:8001", forged) is None, forged  # relayed instead


def test_only_a_worker_s_own_address_is_followed() -> None:
    assert socket_base("https://play.example.org/w3/", "ignored") == "wss://play.example.org/w3"
    assert socket_base("http://10.0.0.7:8001", "ignored") == "ws://10.0.0.7:8001"
    for advertised in (
        None,
        "",
        "1",
        "javascript:alert(1)",
        "ws://x:1",
        "http://x:1/?a=b",
        "http://u:p@x",
        "http://x#f",
        "http://{host}{host}",
    ):
        assert socket_base(advertised, "testserver") is None, advertised  # "1": a worker without an address, or before decision 0068
    for bad in (
        "ftp://x",
        "http://",
        "http://x:99999",
        "http://x/a b",
        "http://{port}:1",
        "http://a.{host}:1",
        "http://{host}.evil:1",
        'http://x/"y',
    ):
        assert worker_url_problem(bad) is not None, bad
        with pytest.raises(ValueError, match="worker_url"):
            Settings(worker_url=bad)


def test_a_worker_s_own_port_accepts_the_shared_port_s_pages_on_the_same_host_only() -> None:
    allowed = normal_origins(("http://{host}:8000",))

    def refused(origin: str, host: str) -> bool:
        return foreign_origin(Headers({"origin": origin, "host": host}), allowed) is not None

    assert not refused("http://play.example:8000", "play.example:8001")
    assert not refused("http://[::1]:8000", "[::1]:8001")
    assert refused("http://evil.example:8000", "play.example:8001")
    assert refused("http://play.example:8002", "play.example:8001")
    assert refused("https://play.example:8000", "play.example:8001")
