"""Caps on tables and bots per person and per address, and the paginated lobby listing (issue 30, faults 1 and 7).

The search bots are seated in some seats only, so that no table starts and
no search runs in these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import call, create_table, make_settings, new_guest, running, session_token


def register(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": "correct horse"})
    assert response.status_code == 201, response.text
    return session_token(response)


def seat_bot(client: TestClient, token: str, table_id: str, bot: str, seat: int = 1) -> Any:
    return call(client, "POST", f"/api/tables/{table_id}/bots", token, json={"bot": bot, "seats": [seat]})


def kinds(client: TestClient, table_id: str) -> list[str]:
    return [seat["kind"] for seat in call(client, "GET", f"/api/tables/{table_id}").json()["seats"]]


def test_guests_and_accounts_have_their_highest_search_level(db_url: str) -> None:
    with running(make_settings(db_url, guest_max_bot_level=2, account_max_bot_level=4)) as client:
        guest = new_guest(client)
        table = create_table(client, guest, game="doppelkopf", seat=0)
        assert seat_bot(client, guest, table["id"], "pimc:level=2").status_code == 200
        for bot in ("pimc:level=3", "ismcts", "ismcts:level=5"):  # a search bot without a level counts as level 5
            refused = seat_bot(client, guest, table["id"], bot, seat=2)
            assert refused.status_code == 403 and refused.json()["field"] == "bot", refused.text
            assert "level 2" in refused.json()["message"] and "log in" in refused.json()["message"]
        assert kinds(client, table["id"]) == ["human", "bot", "empty", "empty"]  # nothing changed
        created = call(client, "POST", "/api/tables", guest, json={"game": "doppelkopf", "bots": "pimc:level=4"})
        assert created.status_code == 403 and created.json()["field"] == "bots"
        assert seat_bot(client, guest, table["id"], "heuristic", seat=2).status_code == 200  # quick bots have no level

        account = register(client, "ada")
        mine = create_table(client, account, game="doppelkopf", seat=0)
        assert seat_bot(client, account, mine["id"], "ismcts:level=4").status_code == 200
        refused = seat_bot(client, account, mine["id"], "ismcts:level=5", seat=2)
        assert refused.status_code == 403 and refused.json()["field"] == "bot" and "up to level 4" in refused.json()["message"]


def test_tables_with_search_bots_are_capped_per_person_and_per_address(db_url: str) -> None:
    settings = make_settings(db_url, max_search_tables_per_person=2, max_search_tables_per_address=3)
    with running(settings) as client:
        ada = new_guest(client, "Ada")
        tables = [create_table(client, ada, game="doppelkopf", seat=0)["id"] for _ in range(3)]
        assert seat_bot(client, ada, tables[0], "pimc:level=1").status_code == 200
        assert seat_bot(client, ada, tables[0], "ismcts:level=1", seat=2).status_code == 200  # the same table counts once
        assert seat_bot(client, ada, tables[1], "pimc:level=1").status_code == 200
        refused = seat_bot(client, ada, tables[2], "pimc:level=1")
        assert refused.status_code == 429 and refused.json()["field"] == "bot" and "one person" in refused.json()["message"]
        assert kinds(client, tables[2]) == ["human", "empty", "empty", "empty"]
        assert seat_bot(client, ada, tables[2], "heuristic").status_code == 200  # quick bots are not capped

        bea = new_guest(client, "Bea")  # another person at the same address: the address has one left
        assert create_table(client, bea, game="doppelkopf", seat=0, bots="pimc:level=1")["status"] == "playing"
        cleo = new_guest(client, "Cleo")
        before = call(client, "GET", "/api/tables").json()["total"]
        refused = call(client, "POST", "/api/tables", cleo, json={"game": "doppelkopf", "bots": "pimc:level=1"})
        assert refused.status_code == 429 and refused.json()["field"] == "bots" and "address" in refused.json()["message"]
        assert call(client, "GET", "/api/tables").json()["total"] == before  # refused before anything was stored


def test_unfinished_tables_are_capped_per_person_and_per_address(db_url: str) -> None:
    with running(make_settings(db_url, max_tables_per_person=3, max_tables_per_address=4)) as client:
        ada = new_guest(client, "Ada")
        for _ in range(3):
            create_table(client, ada, game="doppelkopf", seat=0)
        refused = call(client, "POST", "/api/tables", ada, json={"game": "doppelkopf"})
        assert refused.status_code == 429 and refused.json()["field"] == "tables", refused.text
        bea = new_guest(client, "Bea")
        create_table(client, bea, game="doppelkopf", seat=0)
        refused = call(client, "POST", "/api/tables", bea, json={"game": "doppelkopf"})
        assert refused.status_code == 429 and "address" in refused.json()["message"]
        assert call(client, "GET", "/api/tables").json()["total"] == 4


def test_the_lobby_listing_is_paginated(db_url: str) -> None:
    with running(make_settings(db_url)) as client:
        people = [new_guest(client, f"Player{n}") for n in range(5)]
        ids = [create_table(client, token, game="doppelkopf", seat=0)["id"] for token in people]
        first = call(client, "GET", "/api/tables?limit=2").json()
        assert [t["id"] for t in first["tables"]] == ids[:2] and first["total"] == 5 and first["offset"] == 0 and first["limit"] == 2
        last = call(client, "GET", "/api/tables?limit=2&offset=4").json()
        assert [t["id"] for t in last["tables"]] == ids[4:]
        assert len(call(client, "GET", "/api/tables").json()["tables"]) == 5  # the default page holds up to 100


@pytest.mark.parametrize(("query", "field"), [("limit=0", "limit"), ("limit=101", "limit"), ("offset=-1", "offset"), ("limit=x", "limit")])
def test_bad_pages_name_the_field(client: TestClient, query: str, field: str) -> None:
    response = call(client, "GET", f"/api/tables?{query}")
    assert response.status_code == 422 and response.json()["field"] == field
