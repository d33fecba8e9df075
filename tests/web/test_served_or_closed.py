"""A table socket is either served or closed, never silent (issue 42, fault 2).

Under ``bench/load_platform.py --workers 2`` with a worker stopped past its
lease, some seats sat on an open socket that got nothing while the new
owner's stand-in played their cards: the relaying worker answered ``ping``
itself, so the client looked connected, and the owner had forgotten it (its
close lost on the way).  Here two apps share one Redis and one database (two
workers in one process), and the pause's effects are brought about directly:

* the owner forgets a relayed client without the close reaching it: the
  client's next ping gets the close (1012), not a pong from the relay;
* the owner goes silent altogether: the relay closes the socket (1012) once
  a ping stays unanswered past ``lease_seconds``;
* a worker lets a table go while a socket for it is being opened: the socket
  is closed (1012) instead of staying on the dropped table.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stich.web.cluster.manager import ClusterTableManager

from .helpers import Reader, connect, create_table, make_settings, new_guest, running, svc


def _manager(client: TestClient) -> ClusterTableManager:
    manager = svc(client).tables
    assert isinstance(manager, ClusterTableManager)
    return manager


def _closed_with(reader: Reader, timeout: float) -> int | None:
    """Read until the socket closes (its code) or ``timeout`` passes (``None``); pongs and other messages are skipped."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            reader.next(timeout=max(0.1, deadline - time.monotonic()))
        except ConnectionError as exc:
            return int(str(exc).rsplit(" ", 1)[-1])
        except TimeoutError:
            return None
    return None


def _relayed_seat(a: TestClient, b: TestClient) -> tuple[str, str]:
    token = new_guest(a)
    table = create_table(a, token, game="doppelkopf", deals=1, seat=0)  # A owns it; B relays
    return str(table["id"]), token


def _forget_remote_clients(owner: TestClient, table_id: str, *, silent: bool) -> None:
    """The owner drops the table's remote clients without telling their worker (their close lost); ``silent``: and reads nothing more."""

    async def forget() -> None:
        manager = _manager(owner)
        owned = manager.owned[table_id]
        for client, conn in list(owned.remote.items()):
            del owned.remote[client]
            conn.closed = True  # nothing more is published for it
            await manager.tables[table_id].detach(conn)
        if silent and owned.handler is not None:
            owned.handler.cancel()

    portal: Any = owner.portal  # type: ignore[attr-defined]
    portal.call(forget)


def test_a_ping_of_a_client_the_owner_forgot_is_answered_with_a_close(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 's.db'}", redis_url=redis_url, lease_seconds=30.0)
    with running(settings) as a, running(settings) as b:
        table_id, token = _relayed_seat(a, b)
        with connect(b, table_id, token) as ws:
            reader = Reader(ws)
            reader.until(lambda message: message["type"] == "table")
            _forget_remote_clients(a, table_id, silent=False)
            reader.send({"type": "ping", "id": 7})
            pongs_before = sum(message["type"] == "pong" for message in reader.seen)
            assert _closed_with(reader, timeout=10) == 1012  # was: a pong from B, and the socket open for good
            assert sum(message["type"] == "pong" for message in reader.seen) == pongs_before


def test_a_relayed_socket_whose_owner_stays_silent_is_closed(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 's.db'}", redis_url=redis_url, lease_seconds=1.0)
    with running(settings) as a, running(settings) as b:
        table_id, token = _relayed_seat(a, b)
        with connect(b, table_id, token) as ws:
            reader = Reader(ws)
            reader.until(lambda message: message["type"] == "table")
            _forget_remote_clients(a, table_id, silent=True)
            reader.send({"type": "ping", "id": 8})
            assert _closed_with(reader, timeout=10) == 1012
            assert not any(message["type"] == "pong" for message in reader.seen)


def test_a_table_let_go_while_its_socket_opens_closes_the_socket(tmp_path: Path) -> None:
    with running(make_settings(f"sqlite:///{tmp_path / 's.db'}")) as client:
        token = new_guest(client)
        table_id = str(create_table(client, token, game="doppelkopf", deals=1, seat=0)["id"])
        manager = svc(client).tables
        opened = manager.open_socket

        async def open_and_lose(*args: Any) -> Any:
            ticket = await opened(*args)
            manager.tables.pop(table_id)  # the worker lets the table go meanwhile (another one took it over)
            return ticket

        manager.open_socket = open_and_lose  # type: ignore[method-assign]
        with connect(client, table_id, token) as ws:
            assert _closed_with(Reader(ws), timeout=10) == 1012  # was: attached to the dropped table, open and silent
