"""Limits on the table WebSockets (issue 30, fault 3, and the logout item of fault 7).

Connections are capped per session, per address (spectators without a cookie
count against their address) and per table; the message budget belongs to
the session and the address, not to the connection; presence changes are
coalesced; a socket opened before a logout stops acting for its seat.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.guards.socket_limits import Budget

from .helpers import Reader, call, connect, create_table, first_and_close, make_settings, new_guest, running, svc


def refused(client: TestClient, table_id: str, token: str | None = None) -> tuple[dict[str, Any], str]:
    """Open a socket that the server refuses: its error message and the close."""
    with connect(client, table_id, token) as ws:
        return first_and_close(ws)


def ping(reader: Reader, number: int) -> dict[str, Any]:
    """Send a ping; the pong, or the error that answers it."""
    reader.send({"type": "ping", "id": number})
    return reader.until(lambda m: m["type"] in ("error", "pong"))


def welcome(ws: Any) -> Reader:
    reader = Reader(ws)
    assert reader.next()["type"] == "welcome"
    return reader


def test_sockets_per_session_are_capped_and_released_on_close(db_url: str) -> None:
    with running(make_settings(db_url, max_sockets_per_client=2)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0)
        with connect(client, table["id"], token) as first, connect(client, table["id"], token):
            welcome(first)
            error, closed = refused(client, table["id"], token)
            assert error["type"] == "error" and "this session" in error["message"] and "4429" in closed
        with connect(client, table["id"], token) as again:  # the two closed: room again
            welcome(again)


def test_spectators_without_a_cookie_are_capped_per_address(db_url: str) -> None:
    with running(make_settings(db_url, max_sockets_per_client=2, max_sockets_per_address=3)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0)
        with connect(client, table["id"]) as one, connect(client, table["id"]) as two:
            welcome(one), welcome(two)
            error, closed = refused(client, table["id"])
            assert "without a session" in error["message"] and "4429" in closed
            with connect(client, table["id"], token) as player:  # the address has room for one more
                welcome(player)
                error, closed = refused(client, table["id"], new_guest(client))
                assert "this address" in error["message"] and "4429" in closed


def test_sockets_per_table_are_capped(db_url: str) -> None:
    with running(make_settings(db_url, max_sockets_per_table=2)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0)
        other = create_table(client, new_guest(client), game="doppelkopf", seat=0)
        with connect(client, table["id"], token) as one, connect(client, table["id"], new_guest(client)) as two:
            welcome(one), welcome(two)
            error, _closed = refused(client, table["id"], new_guest(client))
            assert "this table" in error["message"]
            with connect(client, other["id"], new_guest(client)) as elsewhere:
                welcome(elsewhere)


def test_the_message_budget_survives_a_reconnect(db_url: str) -> None:
    """Five messages a minute: a connect and three pings, then a reconnect (the fifth) and one ping too many."""
    with running(make_settings(db_url, max_messages_per_minute=5)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0)
        with connect(client, table["id"], token) as ws:
            reader = welcome(ws)
            for number in range(3):
                assert ping(reader, number)["id"] == number
        with connect(client, table["id"], token) as ws:
            reader = welcome(ws)
            error = ping(reader, 9)
            assert error["type"] == "error" and "too many" in error["message"]
            with pytest.raises(ConnectionError, match="1008"):
                reader.until(lambda m: False)
        error, _closed = refused(client, table["id"], token)  # even the connect is over the budget now
        assert "too many messages" in error["message"]


def test_the_message_budget_is_shared_by_an_address(db_url: str) -> None:
    with running(make_settings(db_url, max_messages_per_minute_per_address=4)) as client:
        table = create_table(client, new_guest(client), game="doppelkopf", seat=0)
        with connect(client, table["id"], new_guest(client)) as one, connect(client, table["id"], new_guest(client)) as two:
            first, second = welcome(one), welcome(two)  # two connects of the address's four
            assert ping(first, 1)["id"] == 1 and ping(second, 2)["id"] == 2
            assert ping(second, 3)["type"] == "error"  # the fifth message from this address, in another session


def test_a_budget_refills_over_the_minute() -> None:
    now = [0.0]
    budget = Budget(6, clock=lambda: now[0])
    assert [budget.take("a") for _ in range(7)] == [True] * 6 + [False]
    assert budget.take("b")  # another key has its own
    now[0] = 10.0  # a sixth of a minute: one message back
    assert budget.take("a") and not budget.take("a")


def table_messages_until_pong(reader: Reader, number: int) -> int:
    reader.send({"type": "ping", "id": number})
    count = 0
    while (message := reader.next())["type"] != "pong":
        count += message["type"] == "table"
    return count


def test_spectators_coming_and_going_send_the_players_nothing(db_url: str) -> None:
    with running(make_settings(db_url, presence_interval_seconds=0.05)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0)
        with connect(client, table["id"], token) as ws:
            player = welcome(ws)
            time.sleep(0.3)  # the player's own arrival has been told
            assert table_messages_until_pong(player, 1) >= 1
            for _ in range(20):
                with connect(client, table["id"]) as spectator:
                    welcome(spectator)
            time.sleep(0.3)  # past the presence interval
            assert table_messages_until_pong(player, 2) == 0


def test_a_players_connects_and_closes_are_coalesced(db_url: str) -> None:
    with running(make_settings(db_url, presence_interval_seconds=1.0)) as client:
        ada, bea = new_guest(client, "Ada"), new_guest(client, "Bea")
        table = create_table(client, ada, game="doppelkopf", seat=0)
        assert call(client, "POST", f"/api/tables/{table['id']}/join", bea, json={"seat": 1}).status_code == 200
        with connect(client, table["id"], ada) as ws:
            watcher = welcome(ws)
            table_messages_until_pong(watcher, 1)
            cycles = 10
            for _ in range(cycles):
                with connect(client, table["id"], bea) as other:
                    welcome(other)
            with connect(client, table["id"], bea) as other:  # Bea stays this time
                welcome(other)
                time.sleep(1.5)
                count = table_messages_until_pong(watcher, 2)
                assert 1 <= count < cycles  # told, but not once per connect and close
                last = [m for m in watcher.seen if m["type"] == "table"][-1]
                assert last["seats"][1]["connected"] is True


ENDINGS = {
    "logout": ("/api/auth/logout", None, 200),
    "register": ("/api/auth/register", {"name": "Ada", "password": "a-long-password"}, 201),  # same session, new token
}
"""Ways a socket's session stops holding: ended, or given a new token (the socket keeps the old cookie)."""


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_a_socket_opened_before_logout_stops_acting_for_its_seat(db_url: str, ending: str) -> None:
    with running(make_settings(db_url)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="random")
        with connect(client, table["id"], token) as ws:
            reader = welcome(ws)
            mine = reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]))
            path, body, status = ENDINGS[ending]
            response = call(client, "POST", path, token, json=body) if body is not None else call(client, "POST", path, token)
            assert response.status_code == status, response.text
            reader.send({"type": "action", "action": mine["view"]["legal_actions"][0], "step": mine["step"], "deal": mine["deal"]})
            error = reader.until(lambda m: m["type"] == "error")
            assert error["field"] == "session"
            with pytest.raises(ConnectionError, match="4401"):
                reader.until(lambda m: False)
        actions = svc(client).db.deals_of(table["id"], with_actions=True)[0].actions
        assert len(actions) == mine["step"]  # the action was not played


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_a_silent_socket_is_closed_at_the_logout(db_url: str, ending: str) -> None:
    """Issue 42: a socket that sends nothing after its session ended got its seat's ``state`` (the hand) until it spoke."""
    with running(make_settings(db_url)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="random")
        with connect(client, table["id"], token) as ws:
            reader = welcome(ws)
            reader.until(lambda m: m["type"] == "state")
            path, body, status = ENDINGS[ending]
            response = call(client, "POST", path, token, json=body) if body is not None else call(client, "POST", path, token)
            assert response.status_code == status, response.text
            error = reader.until(lambda m: m["type"] == "error", timeout=5)
            assert error["field"] == "session"
            with pytest.raises(ConnectionError, match="4401"):
                reader.until(lambda m: False, timeout=5)
