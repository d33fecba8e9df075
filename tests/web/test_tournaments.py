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


def test_two_workers_finishing_tables_at_the_same_moment_lose_nothing(db_url: str) -> None:
    # each worker has its own engine (as two processes would); both store finished deals of their own table at once
    from concurrent.futures import ThreadPoolExecutor

    from stich.core.registry import make_game
    from stich.tournaments.standings import compute_standings, outcome_from
    from stich.web.storage.db import Database, SeatRow, TableRow
    from stich.web.storage.models import Deal, utcnow
    from stich.web.storage.tournaments import CommittedDeal, TournamentRow, add_result, create_tournament, outcomes_of

    setup = Database(db_url)
    setup.migrate()
    game, now, deals = make_game("doppelkopf"), utcnow(), 12
    table_ids = [f"tbl{i}" for i in range(2)]
    for table_id in table_ids:
        seats = tuple(SeatRow(i, "bot", bot="random") for i in range(4))
        setup.create_table(TableRow(table_id, game.canonical, game.name, deals, True, "x" * 24, "playing", None, now, seats))
    row = TournamentRow("tour", "Gleichzeitig", game.canonical, game.name, None, deals, 2, "random", None, "running", None, "o", now)
    create_tournament(setup, row, [CommittedDeal(n, n, "ab" * 32, "cd" * 32) for n in range(deals)], table_ids)
    deal_ids: dict[tuple[int, int], int] = {}
    with setup.sessions() as s:
        for position, table_id in enumerate(table_ids):
            for n in range(deals):
                deal = Deal(table_id=table_id, number=n, dealer=0, seed=str(n), salt="ab" * 32, commitment="cd" * 32, status="finished")
                deal.created_at = now
                s.add(deal)
                s.flush()
                deal_ids[(position, n)] = deal.id
        s.commit()
    workers = [Database(db_url), Database(db_url)]

    def finish(position: int) -> None:
        for n in range(deals):
            outcome = outcome_from(position, n, n, 0, [n, -n, n, -n] if position else [-n, n, -n, n], [f"P{position}{s}" for s in range(4)])
            add_result(workers[position], "tour", position, n, deal_ids[(position, n)], outcome)
            add_result(workers[position], "tour", position, n, deal_ids[(position, n)], outcome)  # stored twice: still one row

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(finish, [0, 1]))
    outcomes = outcomes_of(setup, "tour")
    assert sorted((o.table, o.number) for o in outcomes) == [(t, n) for t in range(2) for n in range(deals)]
    standings = {(r["table"], r["seat"]): r for r in compute_standings("doppelkopf", outcomes)["rows"]}
    total = sum(range(deals))
    assert standings[(1, 0)]["points"] == total and standings[(0, 0)]["points"] == -total
    assert standings[(1, 0)]["duplicate"] == 2 * total  # the same cards at both tables: seat 0 gained n where the other lost n
    for db in [setup, *workers]:
        db.dispose()


def test_a_start_time_starts_the_tables_with_bots(client: TestClient) -> None:
    from datetime import UTC, datetime, timedelta

    organiser = _register(client, "Organisa")
    when = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    tournament = _create(client, organiser, tables=1, deals=1, start_at=when)
    assert tournament["status"] == "open" and tournament["start_at"] is not None
    assert call(client, "GET", f"/api/tournaments/{tournament['id']}").json()["tables_detail"][0]["status"] == "open"
    done = wait_for(
        lambda: _get(client, f"/api/tournaments/{tournament['id']}")["status"] == "finished", timeout=120, what="the start time's start"
    )
    assert done
    standings = _get(client, f"/api/tournaments/{tournament['id']}/standings")
    assert standings["deals_counted"] == [0] and len(standings["rows"]) == 4
    assert sum(row["points"] for row in standings["rows"]) == 0  # a Doppelkopf list's entries sum to 0 (TSR 7.3.3 1.)


def test_a_restarted_worker_keeps_dealing_the_tournaments_deals(db_url: str) -> None:
    from .helpers import make_settings, running, svc

    settings = make_settings(db_url)
    with running(settings) as client:
        organiser = _register(client, "Organisa")
        tournament = _create(client, organiser, tables=1, deals=2)
        guest = new_guest(client, "Ruth")
        joined = call(client, "POST", f"/api/tournaments/{tournament['id']}/join", guest, json={}).json()
        assert call(client, "POST", f"/api/tournaments/{tournament['id']}/start", organiser).status_code == 200
        table_id = joined["url"].rsplit("/", 1)[1]
        wait_for(lambda: svc(client).tables.get(table_id).deal is not None, what="deal 0")  # type: ignore[union-attr]
    with running(settings) as client:  # a new process: the table is resumed from the database
        runtime = svc(client).tables.get(table_id)
        assert runtime is not None and runtime.duplicate is not None and runtime.duplicate.tournament_id == tournament["id"]
        assert runtime.deal is not None and runtime.deal.fair.digest == tournament["commitments"][0]["commitment"]
        assert [d.commitment for d in runtime.duplicate.deals] == [c["commitment"] for c in tournament["commitments"]]
