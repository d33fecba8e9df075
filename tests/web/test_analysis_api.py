"""``/api/deals/{id}/analysis`` (issue 43): a finished deal analysed for its player, the CLI's numbers, and no analysis of a running deal.

Finished deals come from real play (the player never connects; the stand-in
plays at once, as in test_history.py).  The analysis runs in the server's bot
worker processes with a small budget; its numbers must equal
:func:`stich.analysis.analyse_record`'s for the stored record, seat, budget and seed.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.analysis import DecisionReport, analyse_record
from stich.web.runtime.analyses import ANALYSIS_VERSION, AnalysisStep, Progress

from .helpers import call, create_table, make_settings, new_guest, running, svc, wait_for

TEST_BUDGET = 2
"""Worlds per decision in these tests (the web's default takes seconds per decision)."""


@pytest.fixture
def absent_client(db_url: str) -> Any:
    """A server whose stand-in plays at once for anyone not connected, analysing with :data:`TEST_BUDGET` worlds."""
    with running(make_settings(db_url, grace_seconds=0.0, analysis_budget=TEST_BUDGET)) as client:
        yield client


def _finished_deal(client: TestClient, token: str, game: str = "doppelkopf") -> dict[str, Any]:
    table = create_table(client, token, game=game, seat=1, bots="random")

    def done() -> dict[str, Any] | None:
        deals = call(client, "GET", f"/api/tables/{table['id']}/deals", token).json()["deals"]
        return next((d for d in deals if d["status"] == "finished"), None)

    found: dict[str, Any] = wait_for(done, timeout=60, what="a finished deal")
    return found


@pytest.mark.both_databases
def test_a_player_gets_the_analysis_of_their_seat_with_the_clis_numbers(absent_client: TestClient) -> None:
    _analysed_with_the_clis_numbers(absent_client, "doppelkopf")


def test_a_tarock_player_gets_the_analysis_with_the_clis_numbers_too(absent_client: TestClient) -> None:
    """Dobbm on SQLite only: the storage is the same as Doppelkopf's, checked on both databases above."""
    _analysed_with_the_clis_numbers(absent_client, "dobbm")


def _analysed_with_the_clis_numbers(absent_client: TestClient, game: str) -> None:
    token = new_guest(absent_client, "Ada")
    deal = _finished_deal(absent_client, token, game)
    url = f"/api/deals/{deal['id']}/analysis"
    assert call(absent_client, "GET", url, token).status_code == 404  # never started
    started = call(absent_client, "POST", url, token)
    assert started.status_code in (200, 202), started.text
    if started.status_code == 202:
        body = started.json()
        assert body["status"] == "running" and body["seat"] == 1 and body["budget"] == TEST_BUDGET

    def finished() -> dict[str, Any] | None:
        response = call(absent_client, "GET", url, token)
        assert response.status_code in (200, 202), response.text
        data: dict[str, Any] = response.json()
        assert data["status"] != "failed", data
        return data if response.status_code == 200 else None

    done = wait_for(finished, timeout=240, what="the analysis")
    record = json.loads(call(absent_client, "GET", deal["record_url"], token).text)
    expected = analyse_record(record, 1, budget=TEST_BUDGET, seed=done["seed"]).to_json()
    assert done["analysis"] == expected
    assert done["analysis"]["decisions"], "seat 1 made decisions with alternatives"
    # Kept with the deal: asking again answers at once from storage.
    again = call(absent_client, "POST", url, token)
    assert again.status_code == 200 and again.json()["analysis"] == expected


@pytest.mark.both_databases
def test_an_analysis_that_ends_while_the_storage_is_read_is_not_lost(absent_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The interleaving a fresh-clone CI run met on PostgreSQL: nothing kept yet, the analysis ends, nothing running: a 404.

    An analysis is saved and then its progress dropped; the API reads the storage in a thread, during which it may end.
    Here it ends exactly then, whenever the storage is read while it runs: a request must never answer 404 for it.
    """
    token = new_guest(absent_client, "Ada")
    deal = _finished_deal(absent_client, token)
    url = f"/api/deals/{deal['id']}/analysis"
    analyses = svc(absent_client).analyses
    assert analyses is not None
    key = (deal["id"], 1)
    analyses.progress[key] = Progress(done=3, total=5)  # running, about to end
    kept = json.dumps({"decisions": [], "seat": 1})
    read = analyses.stored

    def end() -> None:  # as DealAnalyses._compute ends: saved, then the progress dropped
        analyses.db.save_analysis(key[0], key[1], analyses.budget, analyses.seed, ANALYSIS_VERSION, kept)
        del analyses.progress[key]

    async def stored_while_it_ends(deal_id: int, seat: int) -> dict[str, Any] | None:
        found = await read(deal_id, seat)
        if key in analyses.progress and analyses.progress[key].error is None:
            await asyncio.to_thread(end)
        return found

    monkeypatch.setattr(analyses, "stored", stored_while_it_ends)
    for method in ("GET", "POST"):
        answer = call(absent_client, method, url, token)
        assert answer.status_code == 202 and answer.json()["status"] == "running", answer.text
    end()  # it ends between two requests
    for method in ("GET", "POST"):
        answer = call(absent_client, method, url, token)
        assert answer.status_code == 200 and answer.json()["analysis"] == json.loads(kept), answer.text


def test_only_the_player_gets_it_and_only_for_their_seat(absent_client: TestClient) -> None:
    token = new_guest(absent_client, "Ada")
    deal = _finished_deal(absent_client, token)
    url = f"/api/deals/{deal['id']}/analysis"
    other = new_guest(absent_client, "Bob")
    refused = call(absent_client, "POST", url, other)
    assert refused.status_code == 403 and refused.json()["field"] == "seat"
    assert call(absent_client, "POST", url).status_code == 401
    wrong = call(absent_client, "POST", url + "?seat=2", token)
    assert wrong.status_code == 403 and wrong.json()["field"] == "seat"
    assert call(absent_client, "POST", f"/api/deals/{deal['id'] + 1000}/analysis", token).status_code == 404


def test_no_analysis_of_a_running_deal_for_anyone(db_url: str) -> None:
    # Issue 43: "no analysis of a running deal for anyone" -- the deal waits for Ada, who is away but within her grace period.
    with running(make_settings(db_url)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="random")

        def playing() -> dict[str, Any] | None:
            deals = call(client, "GET", f"/api/tables/{table['id']}/deals", token).json()["deals"]
            return next((d for d in deals if d["status"] == "playing"), None)

        deal = wait_for(playing, timeout=30, what="a running deal")
        url = f"/api/deals/{deal['id']}/analysis"
        spectator = new_guest(client, "Eve")
        for who in (token, spectator, None):
            for method in ("POST", "GET"):
                response = call(client, method, url, who)
                assert response.status_code == 409, (method, response.text)
                assert response.json()["field"] == "deal"
        analyses = svc(client).analyses
        assert analyses is not None and not analyses.progress


def test_progress_while_it_runs_and_one_analysis_per_session(absent_client: TestClient) -> None:
    # The steps wait at a gate, so the analysis is seen running; meanwhile a second one of the same person is refused.
    token = new_guest(absent_client, "Ada")
    table = create_table(absent_client, token, game="dappen", seat=1, bots="random", deals=2)

    def two_done() -> list[dict[str, Any]]:
        deals = call(absent_client, "GET", f"/api/tables/{table['id']}/deals", token).json()["deals"]
        return [d for d in deals if d["status"] == "finished"][:2] if sum(d["status"] == "finished" for d in deals) >= 2 else []

    first, second = wait_for(two_done, timeout=60, what="two finished deals")
    analyses = svc(absent_client).analyses
    assert analyses is not None
    gate = threading.Event()
    plain = analyses.run

    async def held(step: AnalysisStep) -> DecisionReport:
        while not gate.is_set():
            await asyncio.sleep(0.01)
        return await plain(step)

    analyses.run = held
    url = f"/api/deals/{first['id']}/analysis"
    started = call(absent_client, "POST", url, token)
    assert started.status_code == 202, started.text
    running = wait_for(lambda: (r := call(absent_client, "GET", url, token).json()).get("total") is not None and r, what="progress")
    assert running["status"] == "running" and running["done"] == 0 and running["total"] >= 1
    refused = call(absent_client, "POST", f"/api/deals/{second['id']}/analysis", token)
    assert refused.status_code == 429 and refused.json()["field"] == "analysis"
    gate.set()
    done = wait_for(lambda: call(absent_client, "GET", url, token).status_code == 200, timeout=120, what="the analysis")
    assert done
    assert call(absent_client, "POST", f"/api/deals/{second['id']}/analysis", token).status_code in (200, 202)
