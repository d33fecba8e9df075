"""The account page's API (issue 44, "Accounts people can trust"): changing the password, deleting the account, downloading one's data.

Finished deals come from real play: people who never connect get a stand-in
at once (grace 0), so their tables play to the end by themselves.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.records import replay_deal
from stich.core.registry import game_from_string
from stich.web.guards.names import DELETED_PLAYER

from .helpers import call, card_words, connect, create_table, make_settings, new_guest, running, session_token, svc, wait_for

pytestmark = pytest.mark.both_databases

PASSWORD = "correct horse battery"


@pytest.fixture
def absent_client(db_url: str) -> Any:
    """A server whose stand-in plays at once for anyone who is not connected."""
    with running(make_settings(db_url, grace_seconds=0.0)) as test_client:
        yield test_client


def _register(client: TestClient, name: str, password: str = PASSWORD) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return session_token(response)


def _login(client: TestClient, name: str, password: str) -> Any:
    return call(client, "POST", "/api/auth/login", json={"name": name, "password": password})


def _me(client: TestClient, token: str) -> int:
    return int(call(client, "GET", "/api/auth/me", token).status_code)


def _finished_table(client: TestClient, token: str, others: list[str] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """A one-deal table where ``token`` sits in seat 0, ``others`` in the next seats, random bots in the rest; waits until it ends."""
    table = create_table(client, token, game="doppelkopf", seat=0)
    for seat, other in enumerate(others, start=1):
        joined = call(client, "POST", f"/api/tables/{table['id']}/join", other, json={"seat": seat})
        assert joined.status_code == 200, joined.text
    bots = call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "random"})
    assert bots.status_code == 200, bots.text

    def finished() -> dict[str, Any] | None:
        found: dict[str, Any] = call(client, "GET", f"/api/tables/{table['id']}", token).json()
        return found if found["status"] == "finished" else None

    result: dict[str, Any] = wait_for(finished, timeout=30, what="the table to finish")
    return result


def _records(client: TestClient, table_id: str, token: str | None) -> list[dict[str, Any]]:
    deals = call(client, "GET", f"/api/tables/{table_id}/deals", token).json()["deals"]
    return [call(client, "GET", deal["record_url"], token).json() for deal in deals if deal["status"] == "finished"]


# ------------------------------------------------------------------ password
def test_changing_the_password_needs_the_old_one_and_logs_out_the_other_sessions(client: TestClient) -> None:
    token = _register(client, "Erika")
    other = session_token(_login(client, "Erika", PASSWORD))
    assert _me(client, other) == 200

    wrong = call(client, "POST", "/api/account/password", token, json={"old_password": "not it at all", "new_password": "a new secret"})
    assert wrong.status_code == 401 and wrong.json()["field"] == "old_password"
    assert _me(client, other) == 200  # a refused change ends nothing
    assert _login(client, "Erika", "a new secret").status_code == 401

    short = call(client, "POST", "/api/account/password", token, json={"old_password": PASSWORD, "new_password": "short"})
    assert short.status_code == 422 and short.json()["field"] == "new_password"

    changed = call(client, "POST", "/api/account/password", token, json={"old_password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200, changed.text
    assert changed.json()["sessions_ended"] == 1
    fresh = session_token(changed)
    assert fresh != token
    assert _me(client, other) == 401  # the other browser is logged out
    assert _me(client, token) == 401  # the old cookie of this browser is spent too
    assert call(client, "GET", "/api/auth/me", fresh).json() == {"name": "Erika", "guest": False}
    assert _login(client, "Erika", PASSWORD).status_code == 401
    assert _login(client, "Erika", "a new secret").status_code == 200


def test_the_account_page_is_for_accounts_only(client: TestClient) -> None:
    guest = new_guest(client, "Gast-Anna")
    body = {"old_password": PASSWORD, "new_password": "a new secret"}
    assert call(client, "POST", "/api/account/password", None, json=body).status_code == 401
    refused = call(client, "POST", "/api/account/password", guest, json=body)
    assert refused.status_code == 403 and refused.json()["field"] == "session"
    assert call(client, "POST", "/api/account/delete", guest, json={"password": PASSWORD}).status_code == 403
    assert call(client, "GET", "/api/account/export", guest).status_code == 403


def test_wrong_passwords_on_the_account_page_count_as_failed_logins(db_url: str) -> None:
    with running(make_settings(db_url, login_max_failures=2)) as client:
        token = _register(client, "Erika")
        for _ in range(2):
            response = call(client, "POST", "/api/account/delete", token, json={"password": "wrong guess!"})
            assert response.status_code == 401
        limited = call(client, "POST", "/api/account/delete", token, json={"password": PASSWORD})
        assert limited.status_code == 429 and "Retry-After" in limited.headers
        assert _me(client, token) == 200  # nothing was deleted


def test_oversized_and_unknown_fields_are_refused(client: TestClient) -> None:
    token = _register(client, "Erika")
    long = call(client, "POST", "/api/account/password", token, json={"old_password": PASSWORD, "new_password": "x" * 257})
    assert long.status_code == 422 and long.json()["field"] == "new_password"
    extra = call(client, "POST", "/api/account/delete", token, json={"password": PASSWORD, "also": 1})
    assert extra.status_code == 422
    assert _me(client, token) == 200


# ------------------------------------------------------------------ deletion
def test_deleting_the_account_anonymises_its_finished_deals_for_the_others(absent_client: TestClient) -> None:
    client = absent_client
    ada = _register(client, "Ada")
    bert = new_guest(client, "Bert")
    table = _finished_table(client, ada, [bert])
    before = _records(client, table["id"], bert)
    assert before and all(record["players"][:2] == ["Ada", "Bert"] for record in before)

    wrong = call(client, "POST", "/api/account/delete", ada, json={"password": "not it at all"})
    assert wrong.status_code == 401 and _me(client, ada) == 200
    deleted = call(client, "POST", "/api/account/delete", ada, json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["deleted_player"] == DELETED_PLAYER

    assert _me(client, ada) == 401
    assert _login(client, "Ada", PASSWORD).status_code == 401
    after = _records(client, table["id"], bert)
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        assert new["players"] == [DELETED_PLAYER, *old["players"][1:]]
        assert {k: v for k, v in new.items() if k != "players"} == {k: v for k, v in old.items() if k != "players"}
        replay_deal(new)  # still a valid record, the same deal
    seats = call(client, "GET", f"/api/tables/{table['id']}", bert).json()["seats"]
    assert seats[0]["name"] == DELETED_PLAYER and seats[1]["name"] == "Bert"
    stats = call(client, "GET", "/api/me/deals", bert).json()
    assert stats["total"] == len(before)  # Bert's list is whole
    # the name is free again
    assert _register(client, "Ada", "another password")


def test_an_account_at_a_running_table_leaves_it_before_deleting(client: TestClient) -> None:
    token = _register(client, "Ada")
    table = create_table(client, token, game="doppelkopf", seat=0)
    refused = call(client, "POST", "/api/account/delete", token, json={"password": PASSWORD})
    assert refused.status_code == 409 and refused.json()["field"] == "tables" and table["id"] in refused.json()["message"]
    assert _me(client, token) == 200
    assert call(client, "POST", f"/api/tables/{table['id']}/leave", token).status_code == 200
    assert call(client, "POST", "/api/account/delete", token, json={"password": PASSWORD}).status_code == 200


# ------------------------------------------------------------------ export
def test_export_holds_account_tables_and_finished_records(absent_client: TestClient) -> None:
    client = absent_client
    ada = _register(client, "Ada")
    _register(client, "Bert")
    assert call(client, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
    table = _finished_table(client, ada)
    response = call(client, "GET", "/api/account/export", ada)
    assert response.status_code == 200, response.text
    assert "attachment" in response.headers["content-disposition"]
    data = response.json()
    assert data["format"] == "stich-account-export/1"
    assert data["account"]["name"] == "Ada" and data["friends"] == ["Bert"]
    assert "password" not in json.dumps(data["account"]) and "$argon2" not in response.text
    assert [t["id"] for t in data["tables"]] == [table["id"]]
    assert data["tables"][0]["your_seat"] == 0 and data["tables"][0]["status"] == "finished"
    records = _records(client, table["id"], ada)
    assert [d["record"] for d in data["deals"]] == records
    assert all(d["your_seat"] == 0 for d in data["deals"])


def test_export_never_shows_a_card_of_a_running_deal(client: TestClient) -> None:
    ada = _register(client, "Ada")
    table = create_table(client, ada, game="doppelkopf", seat=0, bots="random")

    def running_deal() -> bool:
        deals = call(client, "GET", f"/api/tables/{table['id']}/deals", ada).json()["deals"]
        return any(d["status"] == "playing" for d in deals)

    wait_for(running_deal, what="a running deal")  # Ada never connects, her grace is long: the deal waits for her
    data = call(client, "GET", "/api/account/export", ada).json()
    playing = [d for d in data["deals"] if d["status"] == "playing"]
    assert playing and all(d["record"] is None for d in playing)
    game = game_from_string(data["tables"][0]["game"])
    scrubbed = [{k: v for k, v in d.items() if k != "table"} for d in data["deals"]]  # a random id may look like a card
    assert card_words(game, scrubbed) == set()


@pytest.mark.parametrize("name", ["deleted player", "Deleted  Player", "gelöschter Spieler"])
def test_nobody_may_take_the_deleted_players_name(client: TestClient, name: str) -> None:
    registered = call(client, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
    assert registered.status_code == 422 and registered.json()["field"] == "name" and "reserved" in registered.json()["message"]
    guest = call(client, "POST", "/api/auth/guest", json={"name": name})
    assert guest.status_code == 422 and guest.json()["field"] == "name"


def test_a_deleted_account_leaves_no_friends_list_entry(client: TestClient) -> None:
    ada = _register(client, "Ada")
    cleo = _register(client, "Cleo")
    assert call(client, "POST", "/api/friends", cleo, json={"name": "Ada"}).status_code == 201
    assert call(client, "POST", "/api/friends", ada, json={"name": "Cleo"}).status_code == 201
    assert call(client, "POST", "/api/account/delete", ada, json={"password": PASSWORD}).status_code == 200
    assert call(client, "GET", "/api/friends", cleo).json()["friends"] == []
    assert call(client, "POST", "/api/friends", cleo, json={"name": "Ada"}).status_code == 404


def test_a_finished_table_still_watched_shows_the_deleted_player_too(absent_client: TestClient) -> None:
    client = absent_client
    ada = _register(client, "Ada")
    table = create_table(client, ada, game="doppelkopf", seat=0)
    with connect(client, table["id"]) as watcher:  # a spectator keeps the finished table in memory
        watcher.receive_json()
        assert call(client, "POST", f"/api/tables/{table['id']}/bots", ada, json={"bot": "random"}).status_code == 200

        def finished() -> bool:
            return bool(call(client, "GET", f"/api/tables/{table['id']}").json()["status"] == "finished")

        wait_for(finished, timeout=30, what="the table to finish")
        assert svc(client).tables.get(table["id"]) is not None
        assert call(client, "POST", "/api/account/delete", ada, json={"password": PASSWORD}).status_code == 200
        seats = call(client, "GET", f"/api/tables/{table['id']}").json()["seats"]
        assert seats[0]["name"] == DELETED_PLAYER
