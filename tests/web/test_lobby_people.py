"""A lively lobby (issue 44): who is online, friends (online, at which table), inviting a friend, and Schnellstart."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.identity import Identity
from stich.web.runtime.online import OnlineBoard

from .helpers import call, create_table, make_settings, new_guest, run_async, running, session_token

pytestmark = pytest.mark.both_databases

PASSWORD = "correct horse battery"


def _register(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return session_token(response)


def _friends(client: TestClient, token: str) -> dict[str, dict[str, Any]]:
    answer = call(client, "GET", "/api/friends", token)
    assert answer.status_code == 200, answer.text
    return {f["name"]: f for f in answer.json()["friends"]}


# ------------------------------------------------------------------ online
def test_the_board_counts_people_seen_within_the_window() -> None:
    now = [1000.0]
    board = OnlineBoard(window=90.0, clock=lambda: now[0])
    ada, ada_again, bert = Identity(1, 7, "Ada"), Identity(2, 7, "Ada"), Identity(3, None, "Bert")

    async def steps() -> None:
        await board.seen(ada)
        await board.seen(ada_again)  # one account in two browsers is one person
        now[0] += 30
        await board.seen(bert)
        snapshot = await board.snapshot()
        assert snapshot.count == 2 and snapshot.names == ("Bert", "Ada")
        assert await board.online_accounts([7, 8]) == {7}
        now[0] += 61  # Ada last seen 91 s ago
        assert (await board.snapshot()).count == 1
        assert await board.online_accounts([7]) == set()
        await board.gone(bert)
        assert (await board.snapshot()).count == 0

    run_async(steps())  # on a thread of its own: an earlier test of this process may leave a loop running on this one


def test_who_is_online_counts_the_pages_that_pinged(client: TestClient) -> None:
    assert call(client, "GET", "/api/online").json() == {"count": 0, "names": []}
    ada = _register(client, "Ada")
    bert = new_guest(client, "Bert")
    assert call(client, "POST", "/api/online", ada).status_code == 200
    seen = call(client, "GET", "/api/online", bert).json()
    assert seen["count"] == 2 and sorted(seen["names"]) == ["Ada", "Bert"]
    assert call(client, "POST", "/api/auth/logout", ada).status_code == 200  # logging out leaves the board at once
    assert call(client, "GET", "/api/online").json() == {"count": 1, "names": ["Bert"]}


# ------------------------------------------------------------------ friends
def test_friends_are_added_by_name_and_removed(client: TestClient) -> None:
    ada = _register(client, "Ada")
    _register(client, "Bert")
    added = call(client, "POST", "/api/friends", ada, json={"name": "  bert "})
    assert added.status_code == 201 and added.json() == {"name": "Bert"}
    assert list(_friends(client, ada)) == ["Bert"]
    again = call(client, "POST", "/api/friends", ada, json={"name": "Bert"})
    assert again.status_code == 409 and again.json()["field"] == "name"
    assert call(client, "POST", "/api/friends", ada, json={"name": "Ada"}).status_code == 409
    missing = call(client, "POST", "/api/friends", ada, json={"name": "Nobody"})
    assert missing.status_code == 404 and missing.json()["field"] == "name"
    bad = call(client, "POST", "/api/friends", ada, json={"name": "<script>"})
    assert bad.status_code == 422 and bad.json()["field"] == "name"
    assert call(client, "POST", "/api/friends", ada, json={"name": "x" * 65}).status_code == 422
    assert call(client, "DELETE", "/api/friends/Bert", ada).status_code == 200
    assert _friends(client, ada) == {}
    assert call(client, "DELETE", "/api/friends/Bert", ada).status_code == 404
    guest = new_guest(client, "Gast-Cleo")
    assert call(client, "GET", "/api/friends", guest).status_code == 403
    assert call(client, "GET", "/api/friends", None).status_code == 401


def test_a_friends_list_has_a_limit(db_url: str) -> None:
    with running(make_settings(db_url, max_friends=1)) as client:
        ada = _register(client, "Ada")
        _register(client, "Bert")
        _register(client, "Cleo")
        assert call(client, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
        refused = call(client, "POST", "/api/friends", ada, json={"name": "Cleo"})
        assert refused.status_code == 409 and refused.json()["field"] == "friends"


def test_friends_show_online_and_only_the_tables_the_viewer_may_see(client: TestClient) -> None:
    ada = _register(client, "Ada")
    bert = _register(client, "Bert")
    assert call(client, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
    assert _friends(client, ada)["Bert"] == {"name": "Bert", "online": False, "tables": []}
    public = create_table(client, bert, game="doppelkopf", seat=0)
    private = create_table(client, bert, game="tapp_tarock", seat=0, private=True)
    call(client, "POST", "/api/online", bert)
    seen = _friends(client, ada)["Bert"]
    assert seen["online"] is True
    assert [t["id"] for t in seen["tables"]] == [public["id"]]  # the private table is not named to Ada
    invite = private["invite"].split("invite=")[1]
    assert call(client, "POST", f"/api/tables/{private['id']}/join", ada, json={"seat": 1, "invite": invite}).status_code == 200
    assert sorted(t["id"] for t in _friends(client, ada)["Bert"]["tables"]) == sorted([public["id"], private["id"]])  # now she belongs


def test_a_friend_invited_to_a_table_accepts_and_sits_down(client: TestClient) -> None:
    ada = _register(client, "Ada")
    bert = _register(client, "Bert")
    cleo = _register(client, "Cleo")
    table = create_table(client, ada, game="doppelkopf", seat=0, private=True)
    refused = call(client, "POST", f"/api/tables/{table['id']}/invite", ada, json={"name": "Bert"})
    assert refused.status_code == 404 and refused.json()["field"] == "name"  # not a friend yet
    assert call(client, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
    assert call(client, "POST", f"/api/tables/{table['id']}/invite", cleo, json={"name": "Bert"}).status_code in (403, 404)
    assert call(client, "POST", f"/api/tables/{table['id']}/invite", ada, json={"name": "bert"}).status_code == 201
    notices = call(client, "GET", "/api/invites", bert).json()["invites"]
    assert [(n["table"], n["from"], n["game_name"]) for n in notices] == [(table["id"], "Ada", "doppelkopf")]
    assert call(client, "GET", "/api/invites", cleo).json()["invites"] == []
    seated = call(client, "POST", f"/api/invites/{notices[0]['id']}/accept", bert)
    assert seated.status_code == 200, seated.text
    assert seated.json()["your_seat"] == 1  # the private table took him: the notice carried its token
    assert call(client, "GET", "/api/invites", bert).json()["invites"] == []


# ------------------------------------------------------------------ Schnellstart
def test_schnellstart_joins_an_open_table_of_people_or_opens_one(client: TestClient) -> None:
    first = new_guest(client, "Anna")
    opened = call(client, "POST", "/api/quickstart", first, json={"game": "doppelkopf"})
    assert opened.status_code == 200, opened.text
    assert opened.json()["created"] is True and opened.json()["table"]["your_seat"] == 0
    table_id = opened.json()["table"]["id"]
    assert opened.json()["table"]["private"] is False

    again = call(client, "POST", "/api/quickstart", first, json={"game": "doppelkopf"}).json()
    assert again["table"]["id"] == table_id and again["created"] is False  # she is sent back to her own table

    other_game = create_table(client, new_guest(client, "Dora"), game="tapp_tarock", seat=0)
    private = create_table(client, new_guest(client, "Emil"), game="doppelkopf", seat=0, private=True)
    bots_only = create_table(client, new_guest(client, "Fritz"), game="doppelkopf", seat=None)
    seats = []
    for name in ("Bert", "Cleo", "Dirk"):
        answer = call(client, "POST", "/api/quickstart", new_guest(client, name), json={"game": "doppelkopf"}).json()
        assert answer["table"]["id"] == table_id, (name, answer)
        seats.append(answer["table"]["your_seat"])
    assert seats == [1, 2, 3]
    assert call(client, "GET", f"/api/tables/{table_id}", first).json()["status"] == "playing"  # full: it started
    late = call(client, "POST", "/api/quickstart", new_guest(client, "Gero"), json={"game": "doppelkopf"}).json()
    assert late["created"] is True and late["table"]["id"] not in {table_id, other_game["id"], private["id"], bots_only["id"]}

    unknown = call(client, "POST", "/api/quickstart", first, json={"game": "skat"})
    assert unknown.status_code == 422 and unknown.json()["field"] == "game"
