"""The lobby REST API: games, creating and listing tables, seats, bots, invites, records; refusals name the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import call, create_table, new_guest, wait_for

pytestmark = pytest.mark.both_databases


def _tables(client: TestClient, token: str | None = None) -> list[dict[str, Any]]:
    response = call(client, "GET", "/api/tables", token)
    assert response.status_code == 200
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def test_index_serves_the_client_and_the_api_docs(client: TestClient) -> None:
    response = call(client, "GET", "/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html") and "<script" in response.text
    assert call(client, "GET", "/docs").status_code == 200
    assert call(client, "GET", "/api/health").json()["status"] == "ok"


def test_games_lists_every_game_with_presets_options_and_bots(client: TestClient) -> None:
    data = call(client, "GET", "/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert names == ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"]
    doko = data["games"][0]
    assert doko["seats"] == 4 and doko["default_preset"] == "ddv" and "ddv" in doko["presets"]
    assert any(option["name"] == "nines" for option in doko["options"])
    from stich.bots.registry import bot_names

    assert data["bots"] == bot_names() and data["bots"][:2] == ["random", "heuristic"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"game": "skat"}, 422, "game"),
        ({"game": "doppelkopf", "preset": "nope"}, 422, "preset"),
        ({"game": "doppelkopf", "options": {"colour": "red"}}, 422, "options.colour"),
        ({"game": "doppelkopf", "options": {"nines": "perhaps"}}, 422, "options.nines"),
        ({"game": "doppelkopf", "options": {"nines": {"a": 1}}}, 422, "options.nines"),
        ({"game": "doppelkopf", "deals": 0}, 422, "deals"),
        ({"game": "doppelkopf", "deals": 100000}, 422, "deals"),
        ({"game": "doppelkopf", "deals": "3"}, 422, "deals"),
        ({"game": "doppelkopf", "seat": 4}, 422, "seat"),
        ({"game": "doppelkopf", "seat": -1}, 422, "seat"),
        ({"game": "doppelkopf", "bots": "genius"}, 422, "bots"),
        ({"game": "doppelkopf", "colour": "red"}, 422, "colour"),
        ({"preset": "ddv"}, 422, "game"),
        ({"game": 5}, 422, "game"),
    ],
)
def test_create_table_refusals_name_the_field_and_store_nothing(client: TestClient, body: dict[str, Any], status: int, field: str) -> None:
    response = call(client, "POST", "/api/tables", json=body)
    assert response.status_code == status, response.text
    assert response.json() == {"type": "error", "field": field, "message": response.json()["message"]}
    assert response.json()["message"]
    assert "set-cookie" not in response.headers  # not even a guest session was made
    assert _tables(client) == []


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = call(client, "POST", "/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["field"] == "$"


def test_create_with_options_gives_the_canonical_game(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", preset="ddv", options={"nines": False}, deals=4)
    assert table["game"] == "doppelkopf(preset=ddv,nines=false)"
    assert table["deals_requested"] == 4 and table["status"] == "open" and table["your_seat"] == 0
    assert table["invite"].startswith(f"/tables/{table['id']}?invite=") and len(table["invite"].split("=")[1]) >= 32


def test_join_fill_with_bots_and_start_when_full(client: TestClient) -> None:
    alice, bob, carol = new_guest(client, "Alice"), new_guest(client, "Bob"), new_guest(client, "Carol")
    table = create_table(client, alice, game="doppelkopf", seat=1)
    url = f"/api/tables/{table['id']}"
    assert [t["id"] for t in _tables(client)] == [table["id"]]
    # Bob takes the first free seat; Carol asks for Bob's seat and is refused; a seat out of range is refused
    joined = call(client, "POST", f"{url}/join", bob, json={})
    assert joined.status_code == 200 and joined.json()["your_seat"] == 0
    taken = call(client, "POST", f"{url}/join", carol, json={"seat": 0})
    assert taken.status_code == 409 and taken.json()["field"] == "seat"
    assert call(client, "POST", f"{url}/join", carol, json={"seat": 9}).json()["field"] == "seat"
    again = call(client, "POST", f"{url}/join", bob, json={})
    assert again.status_code == 409 and "already" in again.json()["message"]
    # strangers may not add bots; a bad bot or seat list is refused without a change
    assert call(client, "POST", f"{url}/bots", carol, json={"bot": "random"}).status_code == 403
    assert call(client, "POST", f"{url}/bots", alice, json={"bot": "genius"}).json()["field"] == "bot"
    assert call(client, "POST", f"{url}/bots", alice, json={"seats": [2, 0]}).json()["field"] == "seats.1"
    assert call(client, "POST", f"{url}/bots", alice, json={"seats": [2, 2]}).json()["field"] == "seats.1"
    seats = call(client, "GET", url).json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "empty", "empty"]
    # Bob leaves and comes back; Alice adds a bot to seat 2; Carol takes seat 3: the table is full and starts
    assert call(client, "POST", f"{url}/leave", bob).json()["seats"][0]["kind"] == "empty"
    assert call(client, "POST", f"{url}/join", bob, json={"seat": 0}).status_code == 200
    assert call(client, "POST", f"{url}/bots", alice, json={"bot": "random", "seats": [2]}).json()["status"] == "open"
    full = call(client, "POST", f"{url}/join", carol, json={}).json()
    assert full["status"] == "playing" and full["your_seat"] == 3
    assert [s["name"] for s in full["seats"]] == ["Bob", "Alice", "random bot", "Carol"]
    late = call(client, "POST", f"{url}/join", new_guest(client), json={})
    assert late.status_code == 409 and late.json()["field"] == "table"
    assert call(client, "POST", f"{url}/leave", bob).status_code == 409
    assert [t["status"] for t in _tables(client)] == ["playing"]
    assert _tables(client) == [t for t in _tables(client) if t["status"] == "playing"]
    assert call(client, "GET", "/api/tables?status=open").json()["tables"] == []
    assert call(client, "GET", "/api/tables?status=bogus").json()["field"] == "status"


def test_private_tables_need_the_invite(client: TestClient) -> None:
    host, friend, stranger = new_guest(client), new_guest(client), new_guest(client)
    table = create_table(client, host, game="tapp_tarock", private=True)
    url = f"/api/tables/{table['id']}"
    invite = table["invite"].split("invite=")[1]
    assert _tables(client, stranger) == [] and [t["id"] for t in _tables(client, host)] == [table["id"]]
    assert call(client, "GET", url, stranger).status_code == 404
    assert call(client, "GET", f"{url}?invite={invite}", stranger).json()["id"] == table["id"]
    refused = call(client, "POST", f"{url}/join", stranger, json={"invite": "guess"})
    assert refused.status_code == 403 and refused.json()["field"] == "invite"
    assert call(client, "GET", url, host).json()["seats"][1]["kind"] == "empty"
    joined = call(client, "POST", f"{url}/join", friend, json={"invite": invite})
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    assert joined.json()["invite"] is not None  # members may pass the link on


def test_records_of_finished_and_running_deals(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=None, bots="heuristic")
    assert table["status"] == "playing" and table["your_seat"] is None

    def finished() -> list[dict[str, Any]]:  # bots only: the deal finishes on its own
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
        return deals if deals and deals[0]["status"] == "finished" else []

    deal = wait_for(finished, what="the bots' deal")[0]
    assert deal["status"] == "finished" and deal["record_url"] == f"/api/deals/{deal['id']}/record"
    response = call(client, "GET", deal["record_url"])
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    assert response.json()["seed"] == int(deal["seed"])
    assert call(client, "GET", f"/api/deals/{deal['id']}").json() == deal
    assert call(client, "GET", "/api/deals/99999/record").status_code == 404
    assert call(client, "GET", "/api/deals/abc/record").json()["field"] == "deal_id"


def test_running_deal_has_no_record_yet_and_hides_its_seed(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=0, bots="random")
    deals = wait_for(lambda: call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"], what="the deal")
    assert deals[0]["status"] == "playing" and deals[0]["seed"] is None and deals[0]["salt"] is None
    response = call(client, "GET", f"/api/deals/{deals[0]['id']}/record")
    assert response.status_code == 409 and response.json()["field"] == "deal"
