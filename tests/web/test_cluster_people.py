"""Issue 44 on two workers (two apps sharing one database and one Redis): friends online, Schnellstart, Revanche, invites, accounts.

Whatever worker a person's request lands on, they see the same: a friend
whose page pings worker B is online for a person asking worker A (the
shared board in Redis), Schnellstart on one worker finds the open table the
other runs, a Revanche opened on one worker is joined through the other,
and a password changed on one worker ends the sessions on both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import call, create_table, make_settings, new_guest, running, session_token, wait_for

pytestmark = pytest.mark.both_databases

PASSWORD = "correct horse battery"


@pytest.fixture
def workers(db_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two workers on one database and one Redis; the stand-in plays at once for anyone not connected."""
    settings = make_settings(db_url, redis_url=redis_url, lease_seconds=30.0, grace_seconds=0.0)
    with running(settings) as a, running(settings) as b:
        yield a, b


def _register(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return session_token(response)


def test_a_friend_seen_on_one_worker_is_online_on_the_other(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    ada = _register(a, "Ada")
    bert = _register(b, "Bert")
    assert call(a, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
    assert call(a, "GET", "/api/friends", ada).json()["friends"][0]["online"] is False
    call(b, "POST", "/api/online", bert)
    table = create_table(b, bert, game="doppelkopf", seat=0)
    friend = call(a, "GET", "/api/friends", ada).json()["friends"][0]
    assert friend["online"] is True and [t["id"] for t in friend["tables"]] == [table["id"]]
    board = call(a, "GET", "/api/online", ada).json()
    assert board["count"] == 2 and sorted(board["names"]) == ["Ada", "Bert"]
    assert call(b, "GET", "/api/online").json()["count"] == 2  # the same board on the other worker

    # Ada invites... Bert to her table on worker A; he accepts on worker B, which forwards the join
    assert call(b, "POST", "/api/friends", bert, json={"name": "Ada"}).status_code == 201
    mine = create_table(a, ada, game="doppelkopf", seat=0, private=True)
    assert call(a, "POST", f"/api/tables/{mine['id']}/invite", ada, json={"name": "Bert"}).status_code == 201
    notice = call(b, "GET", "/api/invites", bert).json()["invites"][0]
    accepted = call(b, "POST", f"/api/invites/{notice['id']}/accept", bert)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["your_seat"] == 1


def test_schnellstart_on_one_worker_finds_the_table_of_the_other(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    opened = call(a, "POST", "/api/quickstart", new_guest(a, "Anna"), json={"game": "tapp_tarock"}).json()
    assert opened["created"] is True
    joined = call(b, "POST", "/api/quickstart", new_guest(b, "Bert"), json={"game": "tapp_tarock"}).json()
    assert joined["created"] is False and joined["table"]["id"] == opened["table"]["id"] and joined["table"]["your_seat"] == 1


def test_revanche_opened_on_one_worker_is_joined_through_the_other(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    ada, bert = new_guest(a, "Ada"), new_guest(b, "Bert")
    table = create_table(a, ada, game="doppelkopf", seat=0)
    assert call(b, "POST", f"/api/tables/{table['id']}/join", bert, json={"seat": 1}).status_code == 200
    assert call(a, "POST", f"/api/tables/{table['id']}/bots", ada, json={"bot": "random"}).status_code == 200

    def finished() -> Any:
        return call(b, "GET", f"/api/tables/{table['id']}", bert).json()["status"] == "finished"

    wait_for(finished, timeout=60, what="the table to finish")
    opened = call(b, "POST", f"/api/tables/{table['id']}/rematch", bert).json()  # Bert asks on worker B
    assert opened["created"] is True and opened["rematch"]["seat"] == 1
    again = call(a, "POST", f"/api/tables/{table['id']}/rematch", ada).json()
    assert again["created"] is False and again["rematch"]["id"] == opened["rematch"]["id"]
    notice = call(a, "GET", "/api/invites", ada).json()["invites"][0]
    assert notice["seat"] == 0
    seated = call(a, "POST", f"/api/invites/{notice['id']}/accept", ada)
    assert seated.status_code == 200, seated.text
    assert seated.json()["your_seat"] == 0
    standings = call(a, "GET", f"/api/tables/{table['id']}/standings", ada).json()
    assert standings["final"] is True and standings["rematch"]["id"] == opened["rematch"]["id"]


def test_a_password_changed_on_one_worker_ends_the_sessions_on_both(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    first = _register(a, "Erika")
    other = session_token(call(b, "POST", "/api/auth/login", json={"name": "Erika", "password": PASSWORD}))
    changed = call(a, "POST", "/api/account/password", first, json={"old_password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200 and changed.json()["sessions_ended"] == 1
    assert call(b, "GET", "/api/auth/me", other).status_code == 401
    assert call(b, "GET", "/api/auth/me", session_token(changed)).status_code == 200
    deleted = call(b, "POST", "/api/account/delete", session_token(changed), json={"password": "a new secret"})
    assert deleted.status_code == 200
    assert call(a, "POST", "/api/auth/login", json={"name": "Erika", "password": "a new secret"}).status_code == 401
