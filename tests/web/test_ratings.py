"""Ratings (issue 44, decision 0055): who is rated by which deal, the leaderboard and the profile, and exactly once per deal.

The deals are real: a person plays their seat over the table's socket
(every move their own), random bots the others.  The expected sides and
winners are read independently from each stored record's ``result``
(``re``/``kontra`` or ``declarer``/``defenders``, and the seats' scores).
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.records import deal_record
from stich.core.registry import make_game
from stich.web.deals.deal_facts import thrown_in
from stich.web.deals.ratings import START_MU, START_SIGMA, RatedDeal, SeatHolder, family_of, ordinal, rated_deal
from stich.web.identity import Identity
from stich.web.runtime.seats import new_table_row
from stich.web.storage.db import Database
from stich.web.storage.models import utcnow

from .helpers import Reader, call, card_words, connect, create_table, new_guest, play_as_seat, session_token, wait_for

pytestmark = pytest.mark.both_databases

START = round(ordinal(START_MU, START_SIGMA), 2)


def _account(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": "long enough password"})
    assert response.status_code == 201, response.text
    return session_token(response)


def _play_one_deal(client: TestClient, token: str, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create a table with random bots, play the person's seat 0 through one deal; returns the table and the deal's record."""
    table = create_table(client, token, game="doppelkopf", bots="random", **body)
    with connect(client, table["id"], token) as ws:
        end = play_as_seat(Reader(ws), until=("deal_end",))
    record = call(client, "GET", end["record_url"], token).json()
    return table, record


def _board(client: TestClient, game: str = "doppelkopf", **query: Any) -> dict[str, Any]:
    response = call(client, "GET", f"/api/ratings/{game}", params=query)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def _declaring_won(record: dict[str, Any]) -> bool | None:
    """Whether Re (a soloist) won by the seats' scores; ``None`` for a draw (computed from the result alone)."""
    result = record["result"]
    total = sum(result["scores"][seat] for seat in result["re"])
    return None if total == 0 else total > 0


# --------------------------------------------------------------- API
def test_a_rated_deal_moves_the_players_ratings(client: TestClient) -> None:
    ada = _account(client, "Ada")
    assert _board(client)["players"] == []
    table, record = _play_one_deal(client, ada, rated=True)
    assert table["rated"] is True
    if record["result"].get("redeal") or record["result"].get("kind") in ("thrown", "schmeissen"):
        pytest.skip("the deal was thrown in")  # pragma: no cover - rare with this seat choice
    board = wait_for(lambda: _board(client)["players"] or None, what="a leaderboard")
    names = {line["name"]: line for line in board}
    assert set(names) == {"Ada", "random"}, names
    ada_line = names["Ada"]
    assert ada_line["deals"] == 1 and ada_line["kind"] == "person"
    assert names["random"]["kind"] == "bot" and names["random"]["deals"] == 1
    won = _declaring_won(record)
    ada_re = 0 in record["result"]["re"]
    if won is not None:
        ada_won = won == ada_re
        assert (ada_line["won"], ada_line["lost"]) == ((1, 0) if ada_won else (0, 1))
        assert (ada_line["mu"] > START_MU) == ada_won
    profile = call(client, "GET", "/api/players/ada").json()  # any case, like logins
    assert profile["name"] == "Ada" and profile["kind"] == "person"
    [rating] = profile["ratings"]
    assert rating["pool"] == "doppelkopf:ddv" and rating["deals"] == 1
    assert [p["deal_id"] for p in rating["history"]] == [record["meta"]["deal_id"]]
    assert rating["history"][-1]["rating"] == ada_line["rating"]
    assert [t["id"] for t in profile["recent_tables"]] == [table["id"]]
    assert profile["stats"][0]["game"] == "doppelkopf" and profile["stats"][0]["deals"] == 1
    bot = call(client, "GET", "/api/players/bot:random").json()
    assert bot["kind"] == "bot" and bot["ratings"][0]["deals"] == 1
    exported = call(client, "GET", "/api/account/export", ada).json()  # one's own data includes one's ratings
    [mine] = exported["ratings"]
    assert mine["pool"] == "doppelkopf:ddv" and mine["deals"] == 1 and mine["rating"] == ada_line["rating"]
    assert [(p["deal"], p["rating"]) for p in mine["history"]] == [(record["meta"]["deal_id"], ada_line["rating"])]


def test_an_unrated_table_moves_no_rating(client: TestClient) -> None:
    ada = _account(client, "Ada")
    table, _record = _play_one_deal(client, ada)
    assert table["rated"] is False
    assert _board(client)["total"] == 0
    assert call(client, "GET", "/api/players/Ada").json()["ratings"] == []


def test_guests_neither_create_nor_join_rated_tables(client: TestClient) -> None:
    guest = new_guest(client)
    refused = call(client, "POST", "/api/tables", guest, json={"game": "doppelkopf", "rated": True})
    assert refused.status_code == 403 and refused.json()["field"] == "rated"
    ada = _account(client, "Ada")
    table = create_table(client, ada, game="doppelkopf", rated=True)
    joined = call(client, "POST", f"/api/tables/{table['id']}/join", guest, json={})
    assert joined.status_code == 403 and joined.json()["field"] == "rated"
    bert = _account(client, "Bert")
    assert call(client, "POST", f"/api/tables/{table['id']}/join", bert, json={}).status_code == 200


def test_leaderboard_and_profile_limits(client: TestClient) -> None:
    assert call(client, "GET", "/api/ratings/skat").status_code == 404
    wrong = call(client, "GET", "/api/ratings/doppelkopf", params={"family": "wild"})
    assert wrong.status_code == 422 and wrong.json()["field"] == "family"
    assert call(client, "GET", "/api/ratings/doppelkopf", params={"limit": 101}).status_code == 422
    assert call(client, "GET", "/api/ratings/tapp_tarock", params={"family": "all"}).status_code == 200
    assert _board(client, family="house")["pool"] == "doppelkopf:house"
    for name in ("nobody", "x" * 65, "a:b", "bot:", "bot:" + "y" * 40, "<script>"):
        response = call(client, "GET", f"/api/players/{name}")
        assert response.status_code in (404, 422), (name, response.status_code)
    pools = call(client, "GET", "/api/ratings").json()["pools"]
    assert {"game": "doppelkopf", "family": "ddv", "pool": "doppelkopf:ddv"} in pools
    assert {p["pool"] for p in pools} >= {"doppelkopf:house", "tapp_tarock", "dobbm", "droggn", "dappen"}


def test_profile_and_board_show_no_card_of_a_running_deal(client: TestClient) -> None:
    ada = _account(client, "Ada")
    _play_one_deal(client, ada, rated=True, deals=2)  # the second deal now runs, waiting for Ada
    game = make_game("doppelkopf")
    profile = call(client, "GET", "/api/players/Ada").json()
    board = _board(client)
    assert card_words(game, profile) == set() and card_words(game, board) == set()


# ----------------------------------------------------- who is rated, and how
def _random_record(game_name: str, seed: int, **meta: Any) -> dict[str, Any]:
    game = make_game(game_name)
    state = game.new_state(seed=seed, dealer=0)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return deal_record(state, meta={"stand_in_seats": [], **meta})


def _holders(count: int, people: int = 1) -> list[SeatHolder]:
    return [SeatHolder("human", user_id=10 + i) if i < people else SeatHolder("bot", bot="heuristic") for i in range(count)]


def _played(game: str, want: Any) -> dict[str, Any]:
    for seed in range(400):
        record = _random_record(game, seed)
        if want(record["result"]):
            return record
    raise AssertionError("no such deal in 400 seeds")  # pragma: no cover


def test_sides_follow_the_deal_solo_normal_and_tarock() -> None:
    solo = _played("doppelkopf", lambda r: r.get("solo") and not r.get("redeal"))
    deal = rated_deal(solo, _holders(4, people=4))
    assert deal is not None and [len(side) for side in deal.sides] == [1, 3]
    assert deal.sides[0][0].seat == solo["result"]["re"][0]
    normal = _played("doppelkopf", lambda r: len(r.get("re") or []) == 2)
    deal = rated_deal(normal, _holders(4, people=4))
    assert deal is not None and [len(side) for side in deal.sides] == [2, 2]
    assert {s.seat for s in deal.sides[0]} == set(normal["result"]["re"])
    tapp = _played("tapp_tarock", lambda r: r.get("declarer") is not None)
    deal = rated_deal(tapp, _holders(3))
    assert deal is not None and [len(side) for side in deal.sides] == [1, 2] and deal.pool == "tapp_tarock"
    scores = tapp["result"]["scores"]
    declarer_total = scores[tapp["result"]["declarer"]]
    assert deal.winner == (None if declarer_total == 0 else (0 if declarer_total > 0 else 1))


def test_deals_that_are_not_rated() -> None:
    normal = _played("doppelkopf", lambda r: len(r.get("re") or []) == 2)
    bots_only = [SeatHolder("bot", bot="random")] * 4
    assert rated_deal(normal, bots_only) is None  # bots among themselves
    with_guest = [SeatHolder("human", user_id=1), SeatHolder("human", user_id=None), *bots_only[:2]]
    assert rated_deal(normal, with_guest) is None  # a guest has no rating
    twice = [SeatHolder("human", user_id=1), SeatHolder("human", user_id=1), *bots_only[:2]]
    assert rated_deal(normal, twice) is None  # one account in two seats
    thrown = {**normal, "result": {**normal["result"], "redeal": True}}
    assert rated_deal(thrown, _holders(4)) is None
    assert rated_deal({**normal, "result": None}, _holders(4)) is None


def test_rules_families() -> None:
    assert family_of("doppelkopf(preset=ddv)") == "ddv"
    assert family_of(make_game("doppelkopf", "ddv", {"pflichtsolo": False}).canonical) == "ddv"  # a free table of the DDV rules
    assert family_of(make_game("doppelkopf", "ddv", {"nines": False}).canonical) == "house"
    assert family_of("doppelkopf(preset=house_classic)") == "house"
    assert family_of("dappen(preset=breitnau)") == "all"


def test_an_absent_person_loses_the_deal_even_when_their_side_won() -> None:
    record = _played("doppelkopf", lambda r: len(r.get("re") or []) == 2 and sum(r["scores"][s] for s in r["re"]) > 0)
    winner = record["result"]["re"][0]
    holders = [SeatHolder("human", user_id=1 + i) for i in range(4)]
    present = rated_deal(record, holders)
    away = rated_deal({**record, "meta": {"stand_in_seats": [winner]}}, holders)
    assert present is not None and away is not None
    from stich.web.deals.ratings import changes

    by_player = {c.player: c for c in changes(present, {})}
    absent = {c.player: c for c in changes(away, {})}
    key = f"user:{winner + 1}"
    assert by_player[key].outcome == "won" and by_player[key].mu > START_MU
    assert absent[key].outcome == "lost" and absent[key].mu < START_MU and absent[key].absent
    others = [p for p in by_player if p != key]
    assert all(absent[p].mu == pytest.approx(by_player[p].mu) for p in others)  # the rest are rated as the deal went


# ------------------------------------------------------------ exactly once
def _stored_deal(db: Database, owner: int) -> tuple[int, RatedDeal, str]:
    """A deal of a new rated table in ``db`` with its rated form (person ``owner`` in seat 0, heuristic bots)."""
    session_id = db.create_session(f"{owner:064x}", f"P{owner}", owner, utcnow().replace(year=2100))
    row = new_table_row(make_game("doppelkopf"), 1, False, Identity(session_id, owner, f"P{owner}"), 0, utcnow(), rated=True)
    db.create_table(row)
    record = _played("doppelkopf", lambda r: len(r.get("re") or []) == 2)
    deal = rated_deal(record, [SeatHolder("human", user_id=owner), *_holders(3, people=0)])
    assert deal is not None
    deal_id = db.create_deal(row.id, 0, 0, 1, "salt", "c" * 64)
    return deal_id, deal, json.dumps(record)


def _changes_of(db: Database, player: str) -> int:
    return len(db.ratings.history(player, "doppelkopf:ddv"))


def test_a_deal_is_rated_once_even_when_its_end_is_stored_twice(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    user = db.create_user("Ada", "x")
    deal_id, deal, record = _stored_deal(db, user)
    assert db.finish_deal(deal_id, record, rated=deal) is True
    assert db.finish_deal(deal_id, record, rated=deal) is False
    assert _changes_of(db, f"user:{user}") == 1 and _changes_of(db, "bot:heuristic") == 1
    [row] = db.ratings.ratings_of(f"user:{user}")
    assert row.deals == 1
    db.dispose()


def test_two_workers_finishing_deals_at_once_lose_no_update(db_url: str) -> None:
    """Two database handles (two workers) finish deals with the same bot at the same moment: both count."""
    first, second = Database(db_url), Database(db_url)
    first.migrate()
    users = [first.create_user(f"P{i}", "x") for i in range(6)]
    deals = [_stored_deal(first, user) for user in users]
    barrier = threading.Barrier(len(deals))
    results: list[bool] = []

    def finish(index: int) -> None:
        db = (first, second)[index % 2]
        deal_id, deal, record = deals[index]
        barrier.wait()
        results.append(db.finish_deal(deal_id, record, rated=deal))

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(len(deals))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * len(deals)
    [bot] = first.ratings.ratings_of("bot:heuristic")
    assert bot.deals == len(deals) and _changes_of(first, "bot:heuristic") == len(deals)
    first.dispose()
    second.dispose()


def test_a_profile_asked_again_at_once_is_read_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.web.api import ratings as api_ratings

    _account(client, "Ada")
    reads: list[str] = []
    real = api_ratings._profile

    def counted(db: Database, name: str) -> dict[str, Any] | None:
        reads.append(name)
        return real(db, name)

    monkeypatch.setattr(api_ratings, "_profile", counted)
    for spelling in ("Ada", "ada", "Ada", "nobody"):
        call(client, "GET", f"/api/players/{spelling}")
    assert reads == ["Ada", "nobody"]  # the same name key within PROFILE_SECONDS: answered from memory
    monkeypatch.setattr(api_ratings, "PROFILE_SECONDS", 0.0)
    assert call(client, "GET", "/api/players/Ada").status_code == 200 and reads[-1] == "Ada" and len(reads) == 3


@pytest.mark.parametrize("game", ["doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"])
def test_every_game_rates_the_declaring_side_against_the_rest(game: str) -> None:
    """Each game's result names its sides (Re/Kontra, declarer or lone player/defenders or opponents); every seat that played is on one."""
    record = _played(game, lambda r: not thrown_in(r))
    result = record["result"]
    seats = len(result["scores"])
    deal = rated_deal(record, _holders(seats, people=seats))
    assert deal is not None and deal.pool == (f"{game}:ddv" if game == "doppelkopf" else game)
    declaring = {s.seat for s in deal.sides[0]}
    other = {s.seat for s in deal.sides[1]}
    expected = set(result["re"]) if game == "doppelkopf" else {result.get("declarer", result.get("lone"))}
    assert declaring == expected and not declaring & other
    idle = result.get("idle")
    assert declaring | other == set(range(seats)) - ({idle} if isinstance(idle, int) else set())
    total = sum(result["scores"][seat] for seat in declaring)
    assert deal.winner == (None if total == 0 else (0 if total > 0 else 1))
