"""Duplicate tournaments through the API (decision 0057): creation, seats, bots, live standings, records and their recompute.

Runs on SQLite and on PostgreSQL.  The standings are summed from the stored
finished deals; they are checked against the tables' own lists, and the
downloaded records recompute them exactly (``stich tournament standings``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.cli.main import main

from .helpers import call, new_guest, session_token, wait_for

pytestmark = pytest.mark.both_databases


def _register(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": "correct horse battery"})
    assert response.status_code == 201, response.text
    return session_token(response)


def _create(client: TestClient, token: str, **body: Any) -> dict[str, Any]:
    values: dict[str, Any] = {"name": "Adventsturnier", "game": "doppelkopf", "deals": 2, "tables": 2, "bots": "random"} | body
    response = call(client, "POST", "/api/tournaments", token, json=values)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def _get(client: TestClient, path: str, token: str | None = None) -> Any:
    response = call(client, "GET", path, token)
    assert response.status_code == 200, response.text
    return response.json()


def test_two_tables_of_bots_from_creation_to_standings_and_the_records_recompute_them(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    organiser = _register(client, "Organisa")
    tournament = _create(client, organiser)
    tid = tournament["id"]
    assert tournament["status"] == "open" and tournament["scoring"] == "ddv_list" and tournament["organising"]
    commitments = [c["commitment"] for c in tournament["commitments"]]
    assert len(commitments) == 2 and all(c["seed"] is None for c in tournament["commitments"])
    assert any(t["id"] == tid for t in _get(client, "/api/tournaments")["tournaments"])

    started = call(client, "POST", f"/api/tournaments/{tid}/start", organiser)
    assert started.status_code == 200, started.text

    def finished() -> Any:
        page = _get(client, f"/api/tournaments/{tid}", organiser)
        return page if page["status"] == "finished" else None

    done = wait_for(finished, timeout=120, what="the tournament")

    # every table dealt deal n from the tournament's commitment n: the same cards, provably
    for table in done["tables_detail"]:
        table_id = table["url"].rsplit("/", 1)[1]
        deals = _get(client, f"/api/tables/{table_id}/deals", organiser)["deals"]
        assert [d["commitment"] for d in deals] == commitments
        assert [d["seed"] for d in deals] == [c["seed"] for c in done["commitments"]]
        assert all(seat["kind"] == "bot" for seat in table["seats"])

    standings = _get(client, f"/api/tournaments/{tid}/standings")
    assert standings["deals_counted"] == [0, 1] and len(standings["rows"]) == 8
    records = call(client, "GET", f"/api/tournaments/{tid}/records")
    assert records.status_code == 200 and records.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in records.text.splitlines()]
    assert len(lines) == 4 and all(line["meta"]["tournament"]["id"] == tid for line in lines)
    for row in standings["rows"]:  # the DDV list's sum of each player's entries
        mine = [r for r in lines if r["meta"]["tournament"]["table"] == row["table"]]
        assert row["points"] == sum(r["result"]["scores"][row["seat"]] for r in mine)

    path = tmp_path / "records.jsonl"
    path.write_text(records.text)
    assert main(["tournament", "standings", str(path), "--json"]) == 0
    recomputed = json.loads(capsys.readouterr().out)
    assert recomputed == {k: v for k, v in standings.items() if k != "status"}
    detailed = _get(client, f"/api/tournaments/{tid}/standings?comparison=true")
    assert main(["tournament", "standings", str(path), "--json", "--comparison"]) == 0
    assert json.loads(capsys.readouterr().out) == {k: v for k, v in detailed.items() if k != "status"}
    assert len(detailed["comparison"]) == 2 * 4  # every deal and seat held at both tables


def test_standings_hide_a_deal_another_table_still_plays(client: TestClient) -> None:
    organiser = _register(client, "Organisa")
    tournament = _create(client, organiser)
    tid = tournament["id"]
    guest = new_guest(client, "Ruth")
    joined = call(client, "POST", f"/api/tournaments/{tid}/join", guest, json={})
    assert joined.status_code == 200, joined.text
    assert (joined.json()["table"], joined.json()["seat"]) == (0, 0)
    again = call(client, "POST", f"/api/tournaments/{tid}/join", guest, json={})
    assert again.status_code == 409 and again.json()["field"] == "seat"
    assert call(client, "POST", f"/api/tournaments/{tid}/start", guest).status_code == 403
    assert call(client, "POST", f"/api/tournaments/{tid}/start", organiser).status_code == 200
    # table 1 (bots only) finishes both deals; table 0 waits for Ruth, who does not move
    statuses = lambda: [t["status"] for t in _get(client, f"/api/tournaments/{tid}")["tables_detail"]]  # noqa: E731
    wait_for(lambda: statuses() == ["playing", "finished"], timeout=120, what="table 1 to finish")
    standings = _get(client, f"/api/tournaments/{tid}/standings")
    assert standings["deals_counted"] == [] and standings["rows"] == []
    assert _get(client, f"/api/tournaments/{tid}/standings?comparison=true")["comparison"] == []
    assert call(client, "GET", f"/api/tournaments/{tid}/records").text == ""
    assert all(c["seed"] is None for c in _get(client, f"/api/tournaments/{tid}")["commitments"])
    page = _get(client, f"/api/tournaments/{tid}", guest)
    assert page["tables_detail"][0]["mine"] and page["tables_detail"][0]["url"] and page["tables_detail"][1]["url"] is None


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"name": "x"}, 422, "name"),
        ({"tables": 101}, 422, "tables"),
        ({"game": "skat"}, 422, "game"),
        ({"bots": "pimc"}, 422, "bots"),
        ({"start_at": "tomorrow"}, 422, "start_at"),
        ({"start_at": "2026-12-24T18:00:00"}, 422, "start_at"),
        ({"deals": 100000}, 422, "deals"),
    ],
)
def test_refusals_name_the_field_and_store_nothing(client: TestClient, body: dict[str, Any], status: int, field: str) -> None:
    organiser = _register(client, "Organisa")
    values: dict[str, Any] = {"name": "Adventsturnier", "game": "doppelkopf", "deals": 2, "tables": 2} | body
    response = call(client, "POST", "/api/tournaments", organiser, json=values)
    assert (response.status_code, response.json()["field"]) == (status, field), response.text
    assert _get(client, "/api/tournaments")["total"] == 0


def test_only_accounts_organise_and_each_at_most_three_at_a_time(client: TestClient) -> None:
    guest = new_guest(client, "Ruth")
    response = call(client, "POST", "/api/tournaments", guest, json={"name": "Gasturnier", "game": "doppelkopf"})
    assert (response.status_code, response.json()["field"]) == (401, "account")
    organiser = _register(client, "Organisa")
    for _ in range(3):
        _create(client, organiser, bots=None)
    fourth = call(client, "POST", "/api/tournaments", organiser, json={"name": "Viertes", "game": "doppelkopf"})
    assert (fourth.status_code, fourth.json()["field"]) == (429, "tournaments")
    assert _get(client, "/api/tournaments")["total"] == 3
