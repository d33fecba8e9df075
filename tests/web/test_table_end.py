"""The end of a table (issue 44): final standings, the score sheet as CSV, Revanche and its invite notices.

Finished tables come from real play: people who never connect get a stand-in
at once (grace 0).  Every expectation is recomputed in the test from the
stored records (the scores of each record, their running sums).
"""

from __future__ import annotations

import csv
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.deals.standings import marks

from .helpers import call, connect, create_table, make_settings, new_guest, running, wait_for

pytestmark = pytest.mark.both_databases


@pytest.fixture
def absent_client(db_url: str) -> Any:
    """A server whose stand-in plays at once for anyone who is not connected."""
    with running(make_settings(db_url, grace_seconds=0.0)) as test_client:
        yield test_client


def _finish(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    def finished() -> dict[str, Any] | None:
        found: dict[str, Any] = call(client, "GET", f"/api/tables/{table_id}", token).json()
        return found if found["status"] == "finished" else None

    result: dict[str, Any] = wait_for(finished, timeout=60, what="the table to finish")
    return result


def _table_of_two(client: TestClient, game: str = "doppelkopf", deals: int = 1, **body: Any) -> tuple[str, str, dict[str, Any]]:
    """Ada (seat 0) and Bert (seat 1) with random bots in the other seats, played to the end: their tokens and the table."""
    ada = new_guest(client, "Ada")
    bert = new_guest(client, "Bert")
    table = create_table(client, ada, game=game, seat=0, deals=deals, **body)
    invite = {"invite": table["invite"].split("invite=")[1]} if body.get("private") else {}
    joined = call(client, "POST", f"/api/tables/{table['id']}/join", bert, json={"seat": 1, **invite})
    assert joined.status_code == 200, joined.text
    assert call(client, "POST", f"/api/tables/{table['id']}/bots", ada, json={"bot": "random"}).status_code == 200
    return ada, bert, _finish(client, table["id"], ada)


def _records(client: TestClient, table_id: str, token: str) -> list[dict[str, Any]]:
    deals = call(client, "GET", f"/api/tables/{table_id}/deals", token).json()["deals"]
    finished = sorted((d for d in deals if d["status"] == "finished"), key=lambda d: d["number"])
    return [call(client, "GET", d["record_url"], token).json() for d in finished]


# ------------------------------------------------------------------ standings
@pytest.mark.parametrize(("game", "deals"), [("doppelkopf", 4), ("tapp_tarock", 3)])
def test_final_standings_sum_the_records(absent_client: TestClient, game: str, deals: int) -> None:
    client = absent_client
    ada, _bert, table = _table_of_two(client, game, deals)
    records = _records(client, table["id"], ada)
    answer = call(client, "GET", f"/api/tables/{table['id']}/standings", ada)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["final"] is True and data["your_seat"] == 0 and data["deals_played"] == len(records)
    seats = len(records[0]["result"]["scores"])
    totals = [sum(int(r["result"]["scores"][seat]) for r in records) for seat in range(seats)]
    assert data["totals"] == totals
    assert data["winners"] == [seat for seat in range(seats) if totals[seat] == max(totals)]
    assert [row["total"] for row in data["ranking"]] == sorted(totals, reverse=True)
    for row in data["ranking"]:
        assert row["place"] == 1 + sum(t > row["total"] for t in totals)
    assert data["names"][:2] == ["Ada", "Bert"] and data["names"][2] == "random bot"
    running_sum = [0] * seats
    for row, record in zip(data["sheet"], records, strict=True):
        assert row["scores"] == [int(x) for x in record["result"]["scores"]]
        running_sum = [a + int(b) for a, b in zip(running_sum, record["result"]["scores"], strict=True)]
        assert row["totals"] == running_sum
        assert row["label"]  # the game's own words for the row (replayed, not guessed)
    expected_special = [row["number"] for row in data["sheet"] if marks(row["notes"])]
    assert [row["number"] for row in data["special_rows"]] == expected_special


def test_special_rows_name_what_the_list_notes() -> None:
    assert marks({"kind": "normal", "pflicht": False}) == []
    assert marks({"kind": "solo", "pflicht": True, "forced": False}) == ["pflichtsolo"]
    assert marks({"kind": "solo", "pflicht": True, "forced": True}) == ["vorfuehrung"]
    assert marks({"kind": "solo", "pflicht": False}) == ["lustsolo"]
    assert marks({"redeal": True}) == ["redeal"]
    assert marks({"kind": "normal", "multiplier": 2, "bock_queued": 3, "bock_triggers": ["solo_lost"]}) == ["bock", "bock_trigger"]
    assert marks({"kind": "normal", "pflichtsolo_not_played": [2]}) == ["pflichtsolo_not_played"]
    assert marks({"last_hand": 1}) == ["last_hand"]


def test_a_private_tables_standings_are_for_its_people(absent_client: TestClient) -> None:
    client = absent_client
    _ada, _bert, table = _table_of_two(client, private=True)
    stranger = new_guest(client, "Cleo")
    assert call(client, "GET", f"/api/tables/{table['id']}/standings", stranger).status_code == 404
    assert call(client, "GET", f"/api/tables/{table['id']}/sheet.csv", stranger).status_code == 404


def test_the_score_sheet_downloads_as_csv(absent_client: TestClient) -> None:
    client = absent_client
    ada, _bert, table = _table_of_two(client, deals=2)
    response = call(client, "GET", f"/api/tables/{table['id']}/sheet.csv", ada)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert f"stich-{table['id']}.csv" in response.headers["content-disposition"]
    lines = list(csv.reader(io.StringIO(response.text)))
    header, rows = lines[0], lines[1:]
    assert header[:5] == ["deal", "game", "special", "Ada", "Bert"] and header[-4] == "total Ada"
    records = _records(client, table["id"], ada)
    assert len(rows) == len(records)
    for row, record in zip(rows, records, strict=True):
        assert [int(x) for x in row[3:7]] == [int(x) for x in record["result"]["scores"]]
    standings = call(client, "GET", f"/api/tables/{table['id']}/standings", ada).json()
    assert [int(x) for x in rows[-1][7:]] == standings["totals"]


# ------------------------------------------------------------------ Revanche
def test_revanche_opens_the_same_table_again_for_the_same_people(absent_client: TestClient) -> None:
    client = absent_client
    ada, bert, old = _table_of_two(client, private=True, turn_seconds=60)
    answer = call(client, "POST", f"/api/tables/{old['id']}/rematch", ada)
    assert answer.status_code == 200, answer.text
    assert answer.json()["created"] is True
    rematch = answer.json()["rematch"]
    assert rematch["id"] != old["id"] and rematch["invite"] and rematch["seat"] == 0
    new = call(client, "GET", f"/api/tables/{rematch['id']}", ada).json()
    for key in ("game", "deals_requested", "private", "turn_seconds", "continue_seconds"):
        assert new[key] == old[key], key
    assert [s["kind"] for s in new["seats"]] == ["human", "empty", "bot", "bot"]
    assert new["seats"][0]["name"] == "Ada" and [s["bot"] for s in new["seats"][2:]] == ["random", "random"]
    assert new["status"] == "open"  # Bert's seat waits for him

    # Bert asks too: the same table, not a second one; his answer keeps his seat and carries the invite
    again = call(client, "POST", f"/api/tables/{old['id']}/rematch", bert).json()
    assert again["created"] is False and again["rematch"]["id"] == rematch["id"] and again["rematch"]["seat"] == 1
    shown = call(client, "GET", f"/api/tables/{old['id']}/standings", bert).json()["rematch"]
    assert shown["id"] == rematch["id"] and shown["invite"] == rematch["invite"]

    # Bert has an invite notice keeping seat 1; accepting it seats him and the table starts
    invites = call(client, "GET", "/api/invites", bert).json()["invites"]
    assert [(i["table"], i["seat"], i["from"]) for i in invites] == [(rematch["id"], 1, "Ada")]
    accepted = call(client, "POST", f"/api/invites/{invites[0]['id']}/accept", bert)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["your_seat"] == 1
    assert call(client, "GET", "/api/invites", bert).json()["invites"] == []
    assert call(client, "POST", f"/api/invites/{invites[0]['id']}/accept", bert).status_code == 404
    _finish(client, rematch["id"], ada)


def test_revanche_is_for_the_tables_people_and_only_once_it_has_finished(client: TestClient) -> None:
    ada = new_guest(client, "Ada")
    table = create_table(client, ada, game="doppelkopf", seat=0)
    refused = call(client, "POST", f"/api/tables/{table['id']}/rematch", ada)
    assert refused.status_code == 409 and refused.json()["field"] == "table"
    stranger = new_guest(client, "Cleo")
    assert call(client, "POST", f"/api/tables/{table['id']}/rematch", stranger).status_code == 403
    assert call(client, "POST", f"/api/tables/{table['id']}/rematch", None).status_code == 401


def test_two_players_asking_at_once_get_one_revanche(absent_client: TestClient) -> None:
    client = absent_client
    ada, bert, old = _table_of_two(client)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda token: call(client, "POST", f"/api/tables/{old['id']}/rematch", token), [ada, bert]))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert sorted(a.json()["created"] for a in answers) == [False, True]
    assert len({a.json()["rematch"]["id"] for a in answers}) == 1


def test_invites_are_private_to_their_receiver(absent_client: TestClient) -> None:
    client = absent_client
    ada, bert, old = _table_of_two(client)
    call(client, "POST", f"/api/tables/{old['id']}/rematch", ada)
    invite = call(client, "GET", "/api/invites", bert).json()["invites"][0]
    stranger = new_guest(client, "Cleo")
    assert call(client, "GET", "/api/invites", stranger).json()["invites"] == []
    assert call(client, "POST", f"/api/invites/{invite['id']}/accept", stranger).status_code == 404
    assert call(client, "POST", f"/api/invites/{invite['id']}/decline", stranger).status_code == 404
    assert call(client, "POST", f"/api/invites/{invite['id']}/decline", bert).status_code == 200
    assert call(client, "GET", "/api/invites", bert).json()["invites"] == []
    assert call(client, "POST", f"/api/invites/{2**63}/accept", bert).status_code == 404


def test_the_standings_sheet_is_the_live_tables_own_sheet(absent_client: TestClient) -> None:
    """The sheet rebuilt from the records equals the one the running table sent at its end (rows, labels, notes, totals)."""
    client = absent_client
    ada = new_guest(client, "Ada")
    table = create_table(client, ada, game="doppelkopf", seat=0, deals=6)
    with connect(client, table["id"]) as watcher:
        assert call(client, "POST", f"/api/tables/{table['id']}/bots", ada, json={"bot": "random"}).status_code == 200
        while (message := watcher.receive_json())["type"] != "table_end":
            pass
    data = call(client, "GET", f"/api/tables/{table['id']}/standings", ada).json()
    keys = ("number", "dealer", "label", "scores", "totals", "notes")
    assert [{k: row[k] for k in keys} for row in data["sheet"]] == message["sheet"]
    assert data["totals"] == message["totals"]
